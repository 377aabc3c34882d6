package io.stator.engine;

import io.stator.expression.ConditionExpression;
import io.stator.expression.UpdateExpression;
import io.stator.schema.TableDefinition;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * One validated action of a TransactWriteItems (see {@link TransactWriteValidation}), ready to
 * meet the current item: its table and key, its condition, and what it writes.
 */
record TransactAction(
    Kind kind,
    TableDefinition table,
    StorageKey key,
    Map<String, AttributeValue> keyAttributes,
    ConditionExpression condition,
    UpdateExpression update,
    Map<String, AttributeValue> item,
    boolean returnOldOnFailure) {
  enum Kind {
    CONDITION_CHECK,
    PUT,
    DELETE,
    UPDATE
  }
}
