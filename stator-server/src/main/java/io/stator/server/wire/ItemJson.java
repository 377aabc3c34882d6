package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.Map;

/**
 * Items in the JSON of DynamoDB's API ({@code {"pk":{"S":"a"},...}}), read and written by the
 * server's own codec, for Stator's clients of that API (the export and import commands), so that
 * they read and write every value exactly as the server does.
 */
public final class ItemJson {
  private ItemJson() {}

  /** Writes {@code item} as a JSON object at the generator's position. */
  public static void write(JsonGenerator out, Map<String, AttributeValue> item)
      throws IOException {
    Responses.item(out, item);
  }

  /**
   * Reads the item whose object starts at the parser's current token, leaving the parser on its
   * end; an invalid value is a DynamoDbException, as the server answers it.
   */
  public static Map<String, AttributeValue> read(JsonParser parser) throws IOException {
    JsonInput in = new JsonInput(parser);
    Map<String, AttributeValue> item = in.item();
    in.throwDeferred();
    return item;
  }
}
