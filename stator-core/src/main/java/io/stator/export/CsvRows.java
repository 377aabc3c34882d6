package io.stator.export;

import io.stator.api.AttributeDefinition;
import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CSV import's lines as items, as DynamoDB reads them: each line a row of cells split at the
 * delimiter (a comma unless another is given), a cell in double quotes may hold the delimiter and
 * doubled quotes; the header names the attributes; every cell is a string attribute but those
 * the table's attribute definitions type (its keys and its indexes' keys), which are numbers or
 * binary as defined; an empty cell is no attribute. A row of another width than the header is
 * refused, as is a cell a definition cannot read.
 */
final class CsvRows {
  private final char delimiter;
  private final Map<String, String> types = new LinkedHashMap<>();

  CsvRows(String delimiter, List<AttributeDefinition> definitions) {
    this.delimiter = delimiter == null ? ',' : delimiter.charAt(0);
    if (definitions != null) {
      for (AttributeDefinition d : definitions) {
        types.put(d.attributeName(), d.attributeType());
      }
    }
  }

  List<String> cells(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"' && cell.length() == 0) {
        quoted = true;
      } else if (c == delimiter) {
        out.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    if (quoted) {
      throw DynamoDbException.validation("Unterminated quoted cell");
    }
    out.add(cell.toString());
    return out;
  }

  Map<String, AttributeValue> item(List<String> header, String line) {
    List<String> cells = cells(line);
    if (cells.size() != header.size()) {
      throw DynamoDbException.validation("The row has " + cells.size() + " cells where the"
          + " header has " + header.size());
    }
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      if (cell.isEmpty()) {
        continue;
      }
      String name = header.get(i);
      String type = types.getOrDefault(name, "S");
      try {
        item.put(name, switch (type) {
          case "N" -> AttributeValue.n(cell);
          case "B" -> new AttributeValue.B(DynamoDbJson.base64(cell));
          default -> new AttributeValue.S(cell);
        });
      } catch (InvalidValueException e) {
        throw DynamoDbException.validation(e.getMessage());
      }
    }
    return item;
  }
}
