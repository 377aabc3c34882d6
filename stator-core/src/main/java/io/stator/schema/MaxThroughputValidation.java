package io.stator.schema;

import io.stator.api.OnDemandThroughput;
import io.stator.api.UpdateGlobalSecondaryIndexAction;
import java.util.ArrayList;
import java.util.List;

/**
 * DynamoDB's rules for OnDemandThroughput, the ceilings of an on-demand table and of its global
 * secondary indexes, in CreateTable and UpdateTable.
 *
 * <p>Each ceiling is at least one request unit per second (the API reference's rule) and at most
 * 40,000, the default table-level quota the developer guide names; DynamoDB's answer above that
 * quota is not recorded, so its refusal here is in the words of the range rule. CreateTable takes
 * no {@code -1}; UpdateTable takes {@code -1} to remove a ceiling, and a member it does not
 * give keeps its ceiling. A provisioned
 * table takes none, and a table that becomes provisioned loses those it had. The words of each
 * refusal are those DynamoDB is recorded to answer.
 */
final class MaxThroughputValidation {
  /** The developer guide's default table-level throughput quota (adjustable on AWS). */
  static final long MAX_REQUEST_UNITS = 40_000;

  private MaxThroughputValidation() {}

  /** CreateTable's ceilings of the table. */
  static MaxThroughput createTable(OnDemandThroughput given, boolean payPerRequest) {
    return create(given, payPerRequest, "", "for table");
  }

  /** The ceilings of a GSI that CreateTable or UpdateTable creates. */
  static MaxThroughput createIndex(
      OnDemandThroughput given, boolean payPerRequest, String indexName) {
    return create(given, payPerRequest, " for index: " + indexName, "for index : " + indexName);
  }

  /**
   * UpdateTable's ceilings of the table, on the table as its billing mode now is ({@code
   * payPerRequest}): the given members merged into {@code current}.
   */
  static MaxThroughput updateTable(
      MaxThroughput current, OnDemandThroughput given, boolean payPerRequest) {
    if (!payPerRequest) {
      String member = firstGiven(given);
      if (member != null) {
        throw IndexValidation.invalid(member + " for OnDemandThroughput cannot be specified when"
            + " the table BillingMode is PROVISIONED");
      }
      return MaxThroughput.NONE;
    }
    if (given == null) {
      return current;
    }
    if (firstGiven(given) == null) {
      // DynamoDB answers an empty OnDemandThroughput on UpdateTable with an internal error;
      // its reference asks for one member or both.
      throw IndexValidation.invalid("OnDemandThroughput must specify MaxReadRequestUnits,"
          + " MaxWriteRequestUnits or both");
    }
    return merge(current, given, "for table");
  }

  /**
   * UpdateTable's Update of a GSI's ceilings on an on-demand table: the only change DynamoDB
   * takes for such an index.
   */
  static MaxThroughput updateIndex(IndexDefinition index, UpdateGlobalSecondaryIndexAction update) {
    OnDemandThroughput given = update.onDemandThroughput();
    if (update.provisionedThroughput() != null || firstGiven(given) == null) {
      throw IndexValidation.invalid("The only Updates for index: " + index.name()
          + " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput,"
          + " WarmThroughput");
    }
    return merge(index.maxThroughput(), given, "for index : " + index.name());
  }

  /** UpdateTable's refusal of a GSI's ceilings on a provisioned table, if any were given. */
  static void refuseOnProvisionedIndex(OnDemandThroughput given, String indexName) {
    String member = firstGiven(given);
    if (member != null) {
      throw IndexValidation.invalid(member + " for OnDemandThroughput for index: " + indexName
          + " cannot be specified when the table BillingMode is PROVISIONED");
    }
  }

  /** A provisioned table's definition: no ceilings on it or its indexes. */
  static TableDefinition withoutCeilings(TableDefinition table) {
    List<IndexDefinition> indexes = new ArrayList<>();
    boolean changed = false;
    for (IndexDefinition i : table.indexes()) {
      changed |= !i.maxThroughput().isNone();
      indexes.add(i.withMaxThroughput(MaxThroughput.NONE));
    }
    TableDefinition out = table.withMaxThroughput(MaxThroughput.NONE);
    return changed ? out.withIndexes(indexes, out.attributeDefinitions()) : out;
  }

  private static MaxThroughput create(
      OnDemandThroughput given, boolean payPerRequest, String ofIndex, String of) {
    if (given == null) {
      return MaxThroughput.NONE;
    }
    String member = firstGiven(given);
    if (!payPerRequest && member != null) {
      throw IndexValidation.invalid(member + " for OnDemandThroughput" + ofIndex
          + " cannot be specified when table BillingMode is PROVISIONED.");
    }
    long read = units(given.maxReadRequestUnits(), "MaxReadRequestUnits", of, false);
    long write = units(given.maxWriteRequestUnits(), "MaxWriteRequestUnits", of, false);
    return new MaxThroughput(read, write);
  }

  private static MaxThroughput merge(MaxThroughput current, OnDemandThroughput given, String of) {
    long read = given.maxReadRequestUnits() == null
        ? current.readRequestUnits()
        : units(given.maxReadRequestUnits(), "MaxReadRequestUnits", of, true);
    long write = given.maxWriteRequestUnits() == null
        ? current.writeRequestUnits()
        : units(given.maxWriteRequestUnits(), "MaxWriteRequestUnits", of, true);
    return new MaxThroughput(read, write);
  }

  /** A member's ceiling ({@link MaxThroughput#UNLIMITED} when absent, or -1 where it removes). */
  private static long units(Long value, String member, String of, boolean removable) {
    if (value == null || (removable && value == MaxThroughput.UNLIMITED)) {
      return MaxThroughput.UNLIMITED;
    }
    if (value < 1 || value > MAX_REQUEST_UNITS) {
      throw IndexValidation.invalid("Requested " + member + " for OnDemandThroughput " + of
          + " is outside of valid range");
    }
    return value;
  }

  private static String firstGiven(OnDemandThroughput given) {
    if (given == null) {
      return null;
    }
    if (given.maxReadRequestUnits() != null) {
      return "MaxReadRequestUnits";
    }
    return given.maxWriteRequestUnits() != null ? "MaxWriteRequestUnits" : null;
  }

}
