package io.stator.server.access;

import io.stator.api.AttributeValueUpdate;
import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DeleteItemRequest;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.Get;
import io.stator.api.GetItemRequest;
import io.stator.api.KeysAndAttributes;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ScanRequest;
import io.stator.api.Update;
import io.stator.api.UpdateItemRequest;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.expression.SetValue;
import io.stator.expression.UpdateExpression;
import io.stator.value.AttributeValue;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The values of {@code dynamodb:Attributes}: the top-level attribute names a request reads or
 * writes, from its key or item, its expressions (with their {@code #name} placeholders resolved)
 * and the legacy parameters that name attributes.
 *
 * <p>A request that reads or returns whole items (no projection, {@code Select} of all or of the
 * projected attributes, {@code ReturnValues} ALL_OLD or ALL_NEW) touches attributes no request
 * names, so its names are {@link RequestContext#UNKNOWN}: an Allow limited to some attributes does
 * not cover it, as DynamoDB refuses it. So does an expression that does not parse (the request
 * then fails its own validation once allowed).
 */
final class AccessedAttributes {
  private AccessedAttributes() {}

  /** The attribute names one single-item, query or scan request names, or UNKNOWN. */
  static List<String> of(Object request) {
    Names names;
    try {
      if (request instanceof GetItemRequest r) {
        names = new Names(r.expressionAttributeNames(), null);
        names.key(r.key()).projection(r.projectionExpression(), r.attributesToGet());
      } else if (request instanceof PutItemRequest r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.item()).returns(r.returnValues())
            .returns(r.returnValuesOnConditionCheckFailure())
            .condition(r.conditionExpression())
            .expected(r.expected());
      } else if (request instanceof UpdateItemRequest r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.key()).returns(r.returnValues())
            .returns(r.returnValuesOnConditionCheckFailure())
            .update(r.updateExpression())
            .condition(r.conditionExpression())
            .expected(r.expected()).attributeUpdates(r.attributeUpdates());
      } else if (request instanceof DeleteItemRequest r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.key()).returns(r.returnValues())
            .returns(r.returnValuesOnConditionCheckFailure())
            .condition(r.conditionExpression())
            .expected(r.expected());
      } else if (request instanceof QueryRequest r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.select(r.select(), r.projectionExpression(), r.attributesToGet())
            .condition(r.keyConditionExpression())
            .condition(r.filterExpression())
            .legacy(r.keyConditions()).legacy(r.queryFilter());
      } else if (request instanceof ScanRequest r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.select(r.select(), r.projectionExpression(), r.attributesToGet())
            .condition(r.filterExpression())
            .legacy(r.scanFilter());
      } else if (request instanceof Put r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.item()).returns(r.returnValuesOnConditionCheckFailure())
            .condition(r.conditionExpression());
      } else if (request instanceof Update r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.key()).returns(r.returnValuesOnConditionCheckFailure())
            .update(r.updateExpression())
            .condition(r.conditionExpression());
      } else if (request instanceof Delete r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.key()).returns(r.returnValuesOnConditionCheckFailure())
            .condition(r.conditionExpression());
      } else if (request instanceof ConditionCheck r) {
        names = new Names(r.expressionAttributeNames(), r.expressionAttributeValues());
        names.key(r.key()).returns(r.returnValuesOnConditionCheckFailure())
            .condition(r.conditionExpression());
      } else if (request instanceof Get r) {
        names = new Names(r.expressionAttributeNames(), null);
        names.key(r.key()).projection(r.projectionExpression(), null);
      } else {
        return RequestContext.UNKNOWN;
      }
    } catch (RuntimeException invalid) {
      return RequestContext.UNKNOWN;
    }
    return names.list();
  }

  /** The names one table's keys of a BatchGetItem read, with its projection, or UNKNOWN. */
  static List<String> ofBatchGet(KeysAndAttributes keys) {
    Names names = new Names(keys.expressionAttributeNames(), null);
    try {
      for (Map<String, AttributeValue> key : keys.keys() == null
          ? List.<Map<String, AttributeValue>>of() : keys.keys()) {
        names.key(key);
      }
      names.projection(keys.projectionExpression(), keys.attributesToGet());
    } catch (RuntimeException invalid) {
      return RequestContext.UNKNOWN;
    }
    return names.list();
  }

  /** The names of the items (a put) or keys (a delete) of one table's BatchWriteItem writes. */
  static List<String> ofItems(Collection<Map<String, AttributeValue>> itemsOrKeys) {
    Names names = new Names();
    for (Map<String, AttributeValue> item : itemsOrKeys) {
      names.key(item);
    }
    return names.list();
  }

  /** The names gathered for one request; {@code all} once it reads or returns whole items. */
  private static final class Names {
    private final Set<String> names = new TreeSet<>();
    private final Map<String, String> nameHolders;
    private final Map<String, AttributeValue> valueHolders;
    private boolean all;

    Names(Map<String, String> nameHolders, Map<String, AttributeValue> valueHolders) {
      this.nameHolders = nameHolders;
      this.valueHolders = valueHolders;
    }

    Names() {
      this(null, null);
    }

    List<String> list() {
      return all ? RequestContext.UNKNOWN : List.copyOf(names);
    }

    Names key(Map<String, AttributeValue> keyOrItem) {
      if (keyOrItem != null) {
        names.addAll(keyOrItem.keySet());
      }
      return this;
    }

    Names returns(String returnValues) {
      if ("ALL_OLD".equals(returnValues) || "ALL_NEW".equals(returnValues)) {
        all = true;
      }
      return this;
    }

    /** What a Query or Scan returns: COUNT returns no attribute, the rest as a projection. */
    Names select(String select, String projection, List<String> attributesToGet) {
      if ("COUNT".equals(select)) {
        return this;
      }
      if ("ALL_ATTRIBUTES".equals(select) || "ALL_PROJECTED_ATTRIBUTES".equals(select)) {
        all = true;
        return this;
      }
      return projection(projection, attributesToGet);
    }

    /** The projected names; no projection reads every attribute. */
    Names projection(String projection, List<String> attributesToGet) {
      if (projection != null) {
        for (Path path : Expressions.parseProjection(projection, context())) {
          names.add(path.attribute());
        }
      } else if (attributesToGet != null) {
        names.addAll(attributesToGet);
      } else {
        all = true;
      }
      return this;
    }

    Names condition(String expression) {
      if (expression != null) {
        condition(Expressions.parseCondition(expression, context(), "Condition"));
      }
      return this;
    }

    Names update(String expression) {
      if (expression != null) {
        UpdateExpression update = Expressions.parseUpdate(expression, context());
        for (UpdateExpression.Action action : update.actions()) {
          names.add(action.path().attribute());
          if (action instanceof UpdateExpression.Set set) {
            setValue(set.value());
          }
        }
      }
      return this;
    }

    Names expected(Map<String, ExpectedAttributeValue> expected) {
      if (expected != null) {
        names.addAll(expected.keySet());
      }
      return this;
    }

    Names attributeUpdates(Map<String, AttributeValueUpdate> updates) {
      if (updates != null) {
        names.addAll(updates.keySet());
      }
      return this;
    }

    Names legacy(Map<String, io.stator.api.Condition> conditions) {
      if (conditions != null) {
        names.addAll(conditions.keySet());
      }
      return this;
    }

    private void condition(ConditionExpression e) {
      if (e instanceof ConditionExpression.Comparison c) {
        operand(c.left());
        operand(c.right());
      } else if (e instanceof ConditionExpression.Between b) {
        operand(b.value());
        operand(b.low());
        operand(b.high());
      } else if (e instanceof ConditionExpression.In in) {
        operand(in.value());
        in.candidates().forEach(this::operand);
      } else if (e instanceof ConditionExpression.And and) {
        condition(and.left());
        condition(and.right());
      } else if (e instanceof ConditionExpression.Or or) {
        condition(or.left());
        condition(or.right());
      } else if (e instanceof ConditionExpression.Not not) {
        condition(not.operand());
      } else if (e instanceof ConditionExpression.Function f) {
        f.arguments().forEach(this::operand);
      }
    }

    private void setValue(SetValue value) {
      if (value instanceof SetValue.Term term) {
        operand(term.operand());
      } else if (value instanceof SetValue.Plus plus) {
        setValue(plus.left());
        setValue(plus.right());
      } else if (value instanceof SetValue.Minus minus) {
        setValue(minus.left());
        setValue(minus.right());
      } else if (value instanceof SetValue.IfNotExists ifNotExists) {
        names.add(ifNotExists.path().attribute());
        setValue(ifNotExists.fallback());
      } else if (value instanceof SetValue.ListAppend append) {
        setValue(append.first());
        setValue(append.second());
      }
    }

    private void operand(Operand operand) {
      if (operand instanceof Operand.PathOperand p) {
        names.add(p.path().attribute());
      } else if (operand instanceof Operand.Size s) {
        names.add(s.path().attribute());
      }
    }

    private ExpressionContext context() {
      return new ExpressionContext(nameHolders, valueHolders);
    }
  }
}
