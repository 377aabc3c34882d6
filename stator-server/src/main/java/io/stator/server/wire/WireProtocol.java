package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.stator.api.CancellationReason;
import io.stator.api.Database;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeEndpointsResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.Endpoint;
import io.stator.api.ErrorType;
import io.stator.api.ThrottledException;
import io.stator.api.ThrottlingReason;
import io.stator.api.TransactionCanceledException;
import io.stator.server.model.ModelValidation;
import io.stator.value.AttributeValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * DynamoDB's AWS JSON 1.0 protocol: request bodies to {@link Database} calls, responses and
 * errors to bytes.
 *
 * <p>An operation is found by its name in a map of small parser/writer pairs, so the request
 * path needs no reflection. The shared {@link JsonFactory} is thread-safe and recycles its
 * buffers, so a request allocates its parse tree's records and nothing large besides.
 *
 * <p>A body is read strictly, since whatever a lenient reader guesses can make two requests
 * name one key (issue 29): its bytes must be UTF-8 ({@link Utf8Body}: no invalid sequence, no
 * UTF-16 or UTF-32, no byte order mark), its strings valid Unicode (no unpaired surrogate
 * escape, see {@link JsonInput}) and no object may name a member twice (Jackson's strict
 * duplicate detection, which DynamoDB's deserializer also refuses). Each is a
 * SerializationException, found before the request runs.
 */
public final class WireProtocol {
  /** The {@code X-Amz-Target} prefix of DynamoDB's operations. */
  public static final String TARGET_PREFIX = "DynamoDB_20120810.";

  /**
   * The {@code X-Amz-Target} prefix of DynamoDB Streams' operations, served on the same
   * endpoint; their names (as {@link #operation} returns them) keep the prefix, so that a
   * Streams operation is never mistaken for a DynamoDB one.
   */
  public static final String STREAMS_TARGET_PREFIX = "DynamoDBStreams_20120810.";

  // Names as long as the body: DynamoDB takes attribute names of up to 65,535 bytes, which
  // Jackson's default bound (50,000 characters) refused as malformed JSON.
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNameLength(16 * 1024 * 1024).build())
          .build();

  /**
   * How Jackson words a member named twice ({@code Duplicate field 'TableName'}). It and the
   * next are the parse errors answered with a message; StrictBodyTest pins their wording.
   */
  private static final String DUPLICATE_MEMBER = "Duplicate field '";

  /**
   * A word of Jackson's refusals of an unpaired surrogate escape in a member name ({@code
   * Unexpected low surrogate in field name: 0xdfff}, {@code Broken surrogate pair in field
   * name: ...}); its byte parser checks names itself, {@link JsonInput} checks string values.
   */
  private static final String SURROGATE = "surrogate";

  private WireProtocol() {}

  /** One operation: how to read its request, which Database method runs it, how to write. */
  private record Operation<Q, R>(
      JsonInput.Reader<Q> reader, BiFunction<Database, Q, R> call, Responses.Writer<R> writer) {

    /**
     * Reads the request, checks it against the model's constraints of the operation of {@code
     * target} (reading the body again: see {@link ModelValidation}), runs and writes it.
     */
    void invoke(Database database, String operation, RequestCheck check, InputStream body,
        OutputStream out) throws IOException {
      if (!body.markSupported()) {
        body = new ByteArrayInputStream(body.readAllBytes());
      }
      body.mark(Integer.MAX_VALUE);
      Q request;
      JsonInput input;
      try (JsonParser parser = JSON.createParser(new Utf8Body(body))) {
        input = new JsonInput(parser);
        request = input.rootDeferring(reader);
      } catch (IOException e) {
        throw malformed(e);
      }
      body.reset();
      try (JsonParser parser = JSON.createParser(body)) {
        ModelValidation.check(target(operation), parser);
      } catch (IOException e) {
        throw malformed(e);
      }
      input.throwDeferred();
      check.check(operation, request);
      R response = call.apply(database, request);
      try (JsonGenerator generator = JSON.createGenerator(out)) {
        writer.write(generator, response);
      }
    }
  }

  private static final Map<String, Operation<?, ?>> OPERATIONS =
      Map.ofEntries(
          Map.entry(
              "CreateTable",
              new Operation<>(
                  Requests.CREATE_TABLE, Database::createTable, TableResponses.CREATE_TABLE)),
          Map.entry(
              "DescribeTable",
              new Operation<>(
                  Requests.DESCRIBE_TABLE, Database::describeTable, TableResponses.DESCRIBE_TABLE)),
          Map.entry(
              "ListTables",
              new Operation<>(Requests.LIST_TABLES, Database::listTables, Responses::listTables)),
          Map.entry(
              "DeleteTable",
              new Operation<>(
                  Requests.DELETE_TABLE, Database::deleteTable, TableResponses.DELETE_TABLE)),
          Map.entry(
              "UpdateTable",
              new Operation<>(
                  Requests.UPDATE_TABLE, Database::updateTable, TableResponses.UPDATE_TABLE)),
          Map.entry(
              "PutItem", new Operation<>(Requests::putItem, Database::putItem, Responses::putItem)),
          Map.entry(
              "GetItem", new Operation<>(Requests::getItem, Database::getItem, Responses::getItem)),
          Map.entry(
              "DeleteItem",
              new Operation<>(Requests::deleteItem, Database::deleteItem, Responses::deleteItem)),
          Map.entry(
              "UpdateItem",
              new Operation<>(Requests::updateItem, Database::updateItem, Responses::updateItem)),
          Map.entry("Query", new Operation<>(Requests::query, Database::query, Responses::query)),
          Map.entry("Scan", new Operation<>(Requests::scan, Database::scan, Responses::scan)),
          Map.entry(
              "ExecuteStatement",
              new Operation<>(
                  StatementRequests::executeStatement,
                  Database::executeStatement,
                  StatementResponses::executeStatement)),
          Map.entry(
              "BatchExecuteStatement",
              new Operation<>(
                  StatementRequests::batchExecuteStatement,
                  Database::batchExecuteStatement,
                  StatementResponses::batchExecuteStatement)),
          Map.entry(
              "ExecuteTransaction",
              new Operation<>(
                  StatementRequests::executeTransaction,
                  Database::executeTransaction,
                  StatementResponses::executeTransaction)),
          Map.entry(
              "BatchGetItem",
              new Operation<>(
                  MultiItemRequests::batchGetItem,
                  Database::batchGetItem,
                  MultiItemResponses::batchGetItem)),
          Map.entry(
              "BatchWriteItem",
              new Operation<>(
                  MultiItemRequests::batchWriteItem,
                  Database::batchWriteItem,
                  MultiItemResponses::batchWriteItem)),
          Map.entry(
              "TransactWriteItems",
              new Operation<>(
                  MultiItemRequests::transactWriteItems,
                  Database::transactWriteItems,
                  MultiItemResponses::transactWriteItems)),
          Map.entry(
              "TransactGetItems",
              new Operation<>(
                  MultiItemRequests::transactGetItems,
                  Database::transactGetItems,
                  MultiItemResponses::transactGetItems)),
          Map.entry(
              "UpdateTimeToLive",
              new Operation<>(
                  Requests.UPDATE_TIME_TO_LIVE,
                  Database::updateTimeToLive,
                  TableResponses.UPDATE_TIME_TO_LIVE)),
          Map.entry(
              "DescribeTimeToLive",
              new Operation<>(
                  Requests.DESCRIBE_TIME_TO_LIVE,
                  Database::describeTimeToLive,
                  TableResponses.DESCRIBE_TIME_TO_LIVE)),
          Map.entry(
              "UpdateContributorInsights",
              new Operation<>(
                  Requests.UPDATE_CONTRIBUTOR_INSIGHTS,
                  Database::updateContributorInsights,
                  TableResponses.UPDATE_CONTRIBUTOR_INSIGHTS)),
          Map.entry(
              "DescribeContributorInsights",
              new Operation<>(
                  Requests.DESCRIBE_CONTRIBUTOR_INSIGHTS,
                  Database::describeContributorInsights,
                  TableResponses.DESCRIBE_CONTRIBUTOR_INSIGHTS)),
          Map.entry(
              "ListContributorInsights",
              new Operation<>(
                  Requests.LIST_CONTRIBUTOR_INSIGHTS,
                  Database::listContributorInsights,
                  TableResponses.LIST_CONTRIBUTOR_INSIGHTS)),
          Map.entry(
              "TagResource",
              new Operation<>(
                  SettingsRequests.TAG_RESOURCE,
                  Database::tagResource,
                  SettingsResponses::tagResource)),
          Map.entry(
              "UntagResource",
              new Operation<>(
                  SettingsRequests.UNTAG_RESOURCE,
                  Database::untagResource,
                  SettingsResponses::untagResource)),
          Map.entry(
              "ListTagsOfResource",
              new Operation<>(
                  SettingsRequests.LIST_TAGS_OF_RESOURCE,
                  Database::listTagsOfResource,
                  SettingsResponses::listTagsOfResource)),
          Map.entry(
              "PutResourcePolicy",
              new Operation<>(
                  PolicyRequests.PUT_RESOURCE_POLICY,
                  Database::putResourcePolicy,
                  PolicyResponses::putResourcePolicy)),
          Map.entry(
              "GetResourcePolicy",
              new Operation<>(
                  PolicyRequests.GET_RESOURCE_POLICY,
                  Database::getResourcePolicy,
                  PolicyResponses::getResourcePolicy)),
          Map.entry(
              "DeleteResourcePolicy",
              new Operation<>(
                  PolicyRequests.DELETE_RESOURCE_POLICY,
                  Database::deleteResourcePolicy,
                  PolicyResponses::deleteResourcePolicy)),
          Map.entry(
              "DescribeContinuousBackups",
              new Operation<>(
                  SettingsRequests.DESCRIBE_CONTINUOUS_BACKUPS,
                  Database::describeContinuousBackups,
                  SettingsResponses::describeContinuousBackups)),
          Map.entry(
              "UpdateContinuousBackups",
              new Operation<>(
                  SettingsRequests.UPDATE_CONTINUOUS_BACKUPS,
                  Database::updateContinuousBackups,
                  SettingsResponses::updateContinuousBackups)),
          Map.entry(
              "CreateBackup",
              new Operation<>(
                  BackupRequests.CREATE_BACKUP,
                  Database::createBackup,
                  BackupResponses.CREATE_BACKUP)),
          Map.entry(
              "DescribeBackup",
              new Operation<>(
                  BackupRequests.DESCRIBE_BACKUP,
                  Database::describeBackup,
                  BackupResponses.DESCRIBE_BACKUP)),
          Map.entry(
              "ListBackups",
              new Operation<>(
                  BackupRequests.LIST_BACKUPS,
                  Database::listBackups,
                  BackupResponses.LIST_BACKUPS)),
          Map.entry(
              "DeleteBackup",
              new Operation<>(
                  BackupRequests.DELETE_BACKUP,
                  Database::deleteBackup,
                  BackupResponses.DELETE_BACKUP)),
          Map.entry(
              "RestoreTableFromBackup",
              new Operation<>(
                  BackupRequests.RESTORE_TABLE_FROM_BACKUP,
                  Database::restoreTableFromBackup,
                  BackupResponses.RESTORE_TABLE_FROM_BACKUP)),
          Map.entry(
              "RestoreTableToPointInTime",
              new Operation<>(
                  BackupRequests.RESTORE_TABLE_TO_POINT_IN_TIME,
                  Database::restoreTableToPointInTime,
                  BackupResponses.RESTORE_TABLE_TO_POINT_IN_TIME)),
          Map.entry(
              "ExportTableToPointInTime",
              new Operation<>(
                  ExportRequests.EXPORT_TABLE_TO_POINT_IN_TIME,
                  Database::exportTableToPointInTime,
                  ExportResponses.EXPORT_TABLE_TO_POINT_IN_TIME)),
          Map.entry(
              "DescribeExport",
              new Operation<>(
                  ExportRequests.DESCRIBE_EXPORT,
                  Database::describeExport,
                  ExportResponses.DESCRIBE_EXPORT)),
          Map.entry(
              "ListExports",
              new Operation<>(
                  ExportRequests.LIST_EXPORTS,
                  Database::listExports,
                  ExportResponses.LIST_EXPORTS)),
          Map.entry(
              "ImportTable",
              new Operation<>(
                  ExportRequests.IMPORT_TABLE,
                  Database::importTable,
                  ExportResponses.IMPORT_TABLE)),
          Map.entry(
              "DescribeImport",
              new Operation<>(
                  ExportRequests.DESCRIBE_IMPORT,
                  Database::describeImport,
                  ExportResponses.DESCRIBE_IMPORT)),
          Map.entry(
              "ListImports",
              new Operation<>(
                  ExportRequests.LIST_IMPORTS,
                  Database::listImports,
                  ExportResponses.LIST_IMPORTS)),
          Map.entry(
              "DescribeLimits",
              new Operation<>(
                  SettingsRequests.DESCRIBE_LIMITS,
                  Database::describeLimits,
                  SettingsResponses::describeLimits)),
          Map.entry(
              "DescribeEndpoints",
              new Operation<>(
                  SettingsRequests.DESCRIBE_ENDPOINTS,
                  Database::describeEndpoints,
                  SettingsResponses::describeEndpoints)),
          Map.entry(
              STREAMS_TARGET_PREFIX + "ListStreams",
              new Operation<>(
                  StreamRequests.LIST_STREAMS,
                  Database::listStreams,
                  StreamResponses::listStreams)),
          Map.entry(
              STREAMS_TARGET_PREFIX + "DescribeStream",
              new Operation<>(
                  StreamRequests.DESCRIBE_STREAM,
                  Database::describeStream,
                  StreamResponses::describeStream)),
          Map.entry(
              STREAMS_TARGET_PREFIX + "GetShardIterator",
              new Operation<>(
                  StreamRequests.GET_SHARD_ITERATOR,
                  Database::getShardIterator,
                  StreamResponses::getShardIterator)),
          Map.entry(
              STREAMS_TARGET_PREFIX + "GetRecords",
              new Operation<>(
                  StreamRequests.GET_RECORDS,
                  Database::getRecords,
                  StreamResponses::getRecords)));

  /**
   * The operation named by an {@code X-Amz-Target} header, or null when Stator does not serve
   * it (DynamoDB then answers UnknownOperationException).
   */
  public static String operation(String target) {
    if (target != null && target.startsWith(STREAMS_TARGET_PREFIX)) {
      return OPERATIONS.containsKey(target) ? target : null;
    }
    if (target == null || !target.startsWith(TARGET_PREFIX)) {
      return null;
    }
    String name = target.substring(TARGET_PREFIX.length());
    return OPERATIONS.containsKey(name) ? name : null;
  }

  /** All operations Stator serves (Streams operations with their target prefix). */
  public static Set<String> operations() {
    return OPERATIONS.keySet();
  }

  /**
   * Reads the request of {@code operation} from {@code body}, runs it on {@code database} and
   * writes the response to {@code out}. Throws {@link DynamoDbException} for a client error; on
   * an exception, {@code out} may hold a partial response and must be discarded.
   */
  public static void invoke(
      Database database, String operation, InputStream body, OutputStream out)
      throws IOException {
    invoke(database, operation, RequestCheck.NONE, body, out);
  }

  /**
   * Like {@link #invoke(Database, String, InputStream, OutputStream)}, with {@code check} given
   * each request once it is read and valid, before it runs: access control refuses it there.
   */
  public static void invoke(
      Database database, String operation, RequestCheck check, InputStream body,
      OutputStream out) throws IOException {
    Operation<?, ?> op = OPERATIONS.get(operation);
    if (op == null) {
      throw new DynamoDbException(ErrorType.UnknownOperationException, null);
    }
    op.invoke(database, operation, check, body, out);
  }

  /** The {@code X-Amz-Target} of an operation as {@link #operation} names it. */
  private static String target(String operation) {
    return operation.startsWith(STREAMS_TARGET_PREFIX) ? operation : TARGET_PREFIX + operation;
  }

  /**
   * Like {@link #invoke(Database, String, InputStream, OutputStream)} for a request that reached
   * the server at {@code host} (its {@code Host} header, e.g. {@code localhost:8000}): that is
   * the address DescribeEndpoints answers, since a client that discovers endpoints must come
   * back to this server, not to DynamoDB's regional one.
   */
  public static void invoke(
      Database database, String operation, String host, RequestCheck check, InputStream body,
      OutputStream out) throws IOException {
    if (host == null || host.isBlank() || !operation.equals("DescribeEndpoints")) {
      invoke(database, operation, check, body, out);
      return;
    }
    new Operation<DescribeEndpointsRequest, DescribeEndpointsResponse>(
            SettingsRequests.DESCRIBE_ENDPOINTS,
            (db, request) -> reachedAt(db.describeEndpoints(request), host.trim()),
            SettingsResponses::describeEndpoints)
        .invoke(database, operation, check, body, out);
  }

  private static DescribeEndpointsResponse reachedAt(DescribeEndpointsResponse r, String host) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (Endpoint e : r.endpoints()) {
      endpoints.add(new Endpoint(host, e.cachePeriodInMinutes()));
    }
    return new DescribeEndpointsResponse(endpoints);
  }

  /**
   * Throws a bare SerializationException unless {@code body} is one well-formed JSON value.
   * DynamoDB checks this before it looks at the target or the credentials.
   */
  public static void checkWellFormed(InputStream body) {
    try (JsonParser parser = JSON.createParser(new Utf8Body(body))) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return; // an empty body is judged later
      }
      parser.skipChildren();
      if (parser.nextToken() != null) {
        throw DynamoDbException.serialization(null);
      }
    } catch (IOException e) {
      throw malformed(e);
    }
  }

  /**
   * The error for a body Jackson could not parse: DynamoDB answers malformed JSON with a bare
   * SerializationException. Two refusals of JSON that is well-formed by its grammar say what is
   * wrong: a duplicate member, and a member name holding an unpaired surrogate.
   */
  private static DynamoDbException malformed(IOException e) {
    String words = e instanceof JsonParseException parse ? parse.getOriginalMessage() : null;
    if (words == null) {
      return DynamoDbException.serialization(null);
    }
    if (words.startsWith(DUPLICATE_MEMBER)) {
      return DynamoDbException.serialization("Duplicate member "
          + words.substring(DUPLICATE_MEMBER.length() - 1)
          + " in a JSON object: each member may be given once");
    }
    if (words.contains(SURROGATE)) {
      return DynamoDbException.serialization(
          "Invalid string: " + words + " (a string must be valid UTF-8: no unpaired surrogate)");
    }
    return DynamoDbException.serialization(null);
  }

  /** An error body with a message and, for ConditionalCheckFailedException, the item. */
  public static void writeError(
      ErrorType type, String message, Map<String, AttributeValue> item, OutputStream out)
      throws IOException {
    writeError(type, message, item, null, null, out);
  }

  /**
   * Writes the error body of an exception the engine raised, with what it carries: the item of
   * a ConditionalCheckFailedException, the CancellationReasons of a TransactionCanceledException
   * (which DynamoDB words with {@code Message}, as its shape declares), the ThrottlingReasons of
   * a ProvisionedThroughputExceededException or a ThrottlingException.
   */
  public static void writeEngineError(
      ErrorType type, String message, DynamoDbException e, OutputStream out) throws IOException {
    writeError(
        type,
        message,
        e == null ? null : e.item(),
        e instanceof TransactionCanceledException t ? t.cancellationReasons() : null,
        throttlingReasons(e),
        out);
  }

  private static List<ThrottlingReason> throttlingReasons(DynamoDbException e) {
    return e instanceof ThrottledException t ? t.throttlingReasons() : null;
  }

  /**
   * An error body; {@code throttlingReasons} are written as the current API's {@code
   * ThrottlingReasons} list of {@code {reason, resource}} ({@code throttlingReasons} in a
   * ThrottlingException, as its shape names it).
   */
  private static void writeError(
      ErrorType type,
      String message,
      Map<String, AttributeValue> item,
      List<CancellationReason> reasons,
      List<ThrottlingReason> throttlingReasons,
      OutputStream out)
      throws IOException {
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeStartObject();
      generator.writeStringField("__type", type.wireType());
      if (reasons != null) {
        MultiItemResponses.cancellationReasons(generator, reasons);
      }
      if (message != null) {
        String member =
            type == ErrorType.SerializationException || reasons != null ? "Message" : "message";
        generator.writeStringField(member, message);
      }
      if (item != null) {
        generator.writeFieldName("Item");
        Responses.item(generator, item);
      }
      if (throttlingReasons != null) {
        // The spec spells the member differently in the two shapes that carry it.
        generator.writeArrayFieldStart(
            type == ErrorType.ThrottlingException ? "throttlingReasons" : "ThrottlingReasons");
        for (ThrottlingReason r : throttlingReasons) {
          generator.writeStartObject();
          generator.writeStringField("reason", r.reason());
          generator.writeStringField("resource", r.resource());
          generator.writeEndObject();
        }
        generator.writeEndArray();
      }
      generator.writeEndObject();
    }
  }
}
