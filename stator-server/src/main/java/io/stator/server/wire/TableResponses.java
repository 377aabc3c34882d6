package io.stator.server.wire;

import static io.stator.server.wire.Responses.list;
import static io.stator.server.wire.ShapeWriter.bool;
import static io.stator.server.wire.ShapeWriter.field;
import static io.stator.server.wire.ShapeWriter.number;
import static io.stator.server.wire.ShapeWriter.object;
import static io.stator.server.wire.ShapeWriter.string;
import static io.stator.server.wire.ShapeWriter.timestamp;

import io.stator.api.AttributeDefinition;
import io.stator.api.BillingModeSummary;
import io.stator.api.ContributorInsightsSummary;
import io.stator.api.CreateTableResponse;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DescribeTimeToLiveResponse;
import io.stator.api.FailureException;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.OnDemandThroughput;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputDescription;
import io.stator.api.RestoreSummary;
import io.stator.api.StreamSpecification;
import io.stator.api.TableDescription;
import io.stator.api.TimeToLiveDescription;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.api.UpdateTableResponse;
import io.stator.api.UpdateTimeToLiveResponse;

/**
 * Writers of the table operations' responses and of the TableDescription they answer, with its
 * members other responses share (key schema, projection, throughput), as {@link ShapeWriter}s.
 */
final class TableResponses {
  private TableResponses() {}

  // ---- members of a table description -------------------------------------------------------

  static final ShapeWriter<AttributeDefinition> ATTRIBUTE_DEFINITION = object(
      string("AttributeName", AttributeDefinition::attributeName),
      string("AttributeType", AttributeDefinition::attributeType));

  static final ShapeWriter<KeySchemaElement> KEY_SCHEMA_ELEMENT = object(
      string("AttributeName", KeySchemaElement::attributeName),
      string("KeyType", KeySchemaElement::keyType));

  static final ShapeWriter<Projection> PROJECTION = object(
      string("ProjectionType", Projection::projectionType),
      field("NonKeyAttributes", Projection::nonKeyAttributes, Responses::strings));

  /** A ProvisionedThroughput as a request gave it (a backup's or import's source table). */
  static final ShapeWriter<ProvisionedThroughput> PROVISIONED_THROUGHPUT = object(
      number("ReadCapacityUnits", ProvisionedThroughput::readCapacityUnits),
      number("WriteCapacityUnits", ProvisionedThroughput::writeCapacityUnits));

  private static final ShapeWriter<ProvisionedThroughputDescription> THROUGHPUT_DESCRIPTION =
      object(
          timestamp("LastIncreaseDateTime", ProvisionedThroughputDescription::lastIncreaseDateTime),
          timestamp("LastDecreaseDateTime", ProvisionedThroughputDescription::lastDecreaseDateTime),
          number("NumberOfDecreasesToday",
              ProvisionedThroughputDescription::numberOfDecreasesToday),
          number("ReadCapacityUnits", ProvisionedThroughputDescription::readCapacityUnits),
          number("WriteCapacityUnits", ProvisionedThroughputDescription::writeCapacityUnits));

  static final ShapeWriter<OnDemandThroughput> ON_DEMAND_THROUGHPUT = object(
      number("MaxReadRequestUnits", OnDemandThroughput::maxReadRequestUnits),
      number("MaxWriteRequestUnits", OnDemandThroughput::maxWriteRequestUnits));

  static final ShapeWriter<StreamSpecification> STREAM_SPECIFICATION = object(
      bool("StreamEnabled", StreamSpecification::streamEnabled),
      string("StreamViewType", StreamSpecification::streamViewType));

  static final ShapeWriter<TimeToLiveDescription> TIME_TO_LIVE_DESCRIPTION = object(
      string("TimeToLiveStatus", TimeToLiveDescription::timeToLiveStatus),
      string("AttributeName", TimeToLiveDescription::attributeName));

  private static final ShapeWriter<LocalSecondaryIndexDescription> LSI = object(
      string("IndexName", LocalSecondaryIndexDescription::indexName),
      field("KeySchema", LocalSecondaryIndexDescription::keySchema, list(KEY_SCHEMA_ELEMENT)),
      field("Projection", LocalSecondaryIndexDescription::projection, PROJECTION),
      number("IndexSizeBytes", LocalSecondaryIndexDescription::indexSizeBytes),
      number("ItemCount", LocalSecondaryIndexDescription::itemCount),
      string("IndexArn", LocalSecondaryIndexDescription::indexArn));

  private static final ShapeWriter<GlobalSecondaryIndexDescription> GSI = object(
      string("IndexName", GlobalSecondaryIndexDescription::indexName),
      field("KeySchema", GlobalSecondaryIndexDescription::keySchema, list(KEY_SCHEMA_ELEMENT)),
      field("Projection", GlobalSecondaryIndexDescription::projection, PROJECTION),
      string("IndexStatus", GlobalSecondaryIndexDescription::indexStatus),
      bool("Backfilling", GlobalSecondaryIndexDescription::backfilling),
      field("ProvisionedThroughput", GlobalSecondaryIndexDescription::provisionedThroughput,
          THROUGHPUT_DESCRIPTION),
      number("IndexSizeBytes", GlobalSecondaryIndexDescription::indexSizeBytes),
      number("ItemCount", GlobalSecondaryIndexDescription::itemCount),
      string("IndexArn", GlobalSecondaryIndexDescription::indexArn),
      field("OnDemandThroughput", GlobalSecondaryIndexDescription::onDemandThroughput,
          ON_DEMAND_THROUGHPUT));

  static final ShapeWriter<TableDescription> TABLE_DESCRIPTION = object(
      field("AttributeDefinitions", TableDescription::attributeDefinitions,
          list(ATTRIBUTE_DEFINITION)),
      string("TableName", TableDescription::tableName),
      field("KeySchema", TableDescription::keySchema, list(KEY_SCHEMA_ELEMENT)),
      string("TableStatus", TableDescription::tableStatus),
      timestamp("CreationDateTime", TableDescription::creationDateTime),
      field("ProvisionedThroughput", TableDescription::provisionedThroughput,
          THROUGHPUT_DESCRIPTION),
      number("TableSizeBytes", TableDescription::tableSizeBytes),
      number("ItemCount", TableDescription::itemCount),
      string("TableArn", TableDescription::tableArn),
      string("TableId", TableDescription::tableId),
      field("BillingModeSummary", TableDescription::billingModeSummary, object(
          string("BillingMode", BillingModeSummary::billingMode),
          timestamp("LastUpdateToPayPerRequestDateTime",
              BillingModeSummary::lastUpdateToPayPerRequestDateTime))),
      field("LocalSecondaryIndexes", TableDescription::localSecondaryIndexes, list(LSI)),
      field("GlobalSecondaryIndexes", TableDescription::globalSecondaryIndexes, list(GSI)),
      field("StreamSpecification", TableDescription::streamSpecification, STREAM_SPECIFICATION),
      string("LatestStreamLabel", TableDescription::latestStreamLabel),
      string("LatestStreamArn", TableDescription::latestStreamArn),
      bool("DeletionProtectionEnabled", TableDescription::deletionProtectionEnabled),
      (out, t) -> SettingsResponses.tableClassSummary(out, t.tableClassSummary()),
      (out, t) -> SettingsResponses.sseDescription(out, t.sseDescription()),
      field("OnDemandThroughput", TableDescription::onDemandThroughput, ON_DEMAND_THROUGHPUT),
      field("RestoreSummary", TableDescription::restoreSummary, object(
          string("SourceBackupArn", RestoreSummary::sourceBackupArn),
          string("SourceTableArn", RestoreSummary::sourceTableArn),
          timestamp("RestoreDateTime", RestoreSummary::restoreDateTime),
          bool("RestoreInProgress", RestoreSummary::restoreInProgress))));

  // ---- responses of the table operations ----------------------------------------------------

  static final ShapeWriter<CreateTableResponse> CREATE_TABLE = object(
      field("TableDescription", CreateTableResponse::tableDescription, TABLE_DESCRIPTION));

  static final ShapeWriter<DescribeTableResponse> DESCRIBE_TABLE =
      object(field("Table", DescribeTableResponse::table, TABLE_DESCRIPTION));

  static final ShapeWriter<DeleteTableResponse> DELETE_TABLE = object(
      field("TableDescription", DeleteTableResponse::tableDescription, TABLE_DESCRIPTION));

  static final ShapeWriter<UpdateTableResponse> UPDATE_TABLE = object(
      field("TableDescription", UpdateTableResponse::tableDescription, TABLE_DESCRIPTION));

  static final ShapeWriter<UpdateTimeToLiveResponse> UPDATE_TIME_TO_LIVE = object(
      field("TimeToLiveSpecification", UpdateTimeToLiveResponse::timeToLiveSpecification,
          object(bool("Enabled", TimeToLiveSpecification::enabled),
              string("AttributeName", TimeToLiveSpecification::attributeName))));

  static final ShapeWriter<DescribeTimeToLiveResponse> DESCRIBE_TIME_TO_LIVE = object(
      field("TimeToLiveDescription", DescribeTimeToLiveResponse::timeToLiveDescription,
          TIME_TO_LIVE_DESCRIPTION));

  static final ShapeWriter<UpdateContributorInsightsResponse> UPDATE_CONTRIBUTOR_INSIGHTS =
      object(string("TableName", UpdateContributorInsightsResponse::tableName),
          string("IndexName", UpdateContributorInsightsResponse::indexName),
          string("ContributorInsightsStatus",
              UpdateContributorInsightsResponse::contributorInsightsStatus),
          string("ContributorInsightsMode",
              UpdateContributorInsightsResponse::contributorInsightsMode));

  static final ShapeWriter<DescribeContributorInsightsResponse> DESCRIBE_CONTRIBUTOR_INSIGHTS =
      object(string("TableName", DescribeContributorInsightsResponse::tableName),
          string("IndexName", DescribeContributorInsightsResponse::indexName),
          field("ContributorInsightsRuleList",
              DescribeContributorInsightsResponse::contributorInsightsRuleList,
              Responses::strings),
          string("ContributorInsightsStatus",
              DescribeContributorInsightsResponse::contributorInsightsStatus),
          timestamp("LastUpdateDateTime", DescribeContributorInsightsResponse::lastUpdateDateTime),
          field("FailureException", DescribeContributorInsightsResponse::failureException,
              object(string("ExceptionName", FailureException::exceptionName),
                  string("ExceptionDescription", FailureException::exceptionDescription))),
          string("ContributorInsightsMode",
              DescribeContributorInsightsResponse::contributorInsightsMode));

  static final ShapeWriter<ListContributorInsightsResponse> LIST_CONTRIBUTOR_INSIGHTS = object(
      field("ContributorInsightsSummaries",
          ListContributorInsightsResponse::contributorInsightsSummaries,
          list(object(string("TableName", ContributorInsightsSummary::tableName),
              string("IndexName", ContributorInsightsSummary::indexName),
              string("ContributorInsightsStatus",
                  ContributorInsightsSummary::contributorInsightsStatus),
              string("ContributorInsightsMode",
                  ContributorInsightsSummary::contributorInsightsMode)))),
      string("NextToken", ListContributorInsightsResponse::nextToken));
}
