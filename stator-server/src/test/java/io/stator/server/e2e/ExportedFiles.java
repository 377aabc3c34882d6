package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An export's files as a user reads them, with the JSON parser the AWS SDK carries: the
 * manifests, and the items of the data files the manifest lists, each line {@code {"Item":...}}
 * in DynamoDB's typed JSON.
 */
final class ExportedFiles {
  private final Path bucket;
  private final Map<String, JsonNode> summary;

  /** The export whose manifest-summary.json has the key {@code manifestKey} in {@code bucket}. */
  ExportedFiles(Path bucket, String manifestKey) {
    this.bucket = bucket;
    this.summary = parse(read(bucket.resolve(manifestKey))).asObject();
  }

  Map<String, JsonNode> summary() {
    return summary;
  }

  /** The data files' keys and item counts, as manifest-files.json lists them. */
  Map<String, Long> dataFiles() {
    Map<String, Long> out = new LinkedHashMap<>();
    String manifest = read(bucket.resolve(summary.get("manifestFilesS3Key").asString()));
    for (String line : manifest.split("\n")) {
      if (!line.isBlank()) {
        Map<String, JsonNode> f = parse(line).asObject();
        out.put(f.get("dataFileS3Key").asString(), Long.parseLong(f.get("itemCount").asNumber()));
      }
    }
    return out;
  }

  /** Every item of the export, each data file holding as many as its manifest line says. */
  List<Map<String, AttributeValue>> items() {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    for (Map.Entry<String, Long> file : dataFiles().entrySet()) {
      List<String> lines = gunzippedLines(bucket.resolve(file.getKey()));
      assertThat((long) lines.size()).as(file.getKey()).isEqualTo(file.getValue());
      for (String line : lines) {
        Map<String, JsonNode> top = parse(line).asObject();
        assertThat(top.keySet()).containsExactly("Item");
        out.add(item(top.get("Item")));
      }
    }
    return out;
  }

  /** Every line of the export's data files, as JSON objects. */
  List<Map<String, JsonNode>> lines() {
    List<Map<String, JsonNode>> out = new ArrayList<>();
    for (String key : dataFiles().keySet()) {
      for (String line : gunzippedLines(bucket.resolve(key))) {
        out.add(parse(line).asObject());
      }
    }
    return out;
  }

  static List<String> gunzippedLines(Path file) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
      return in.lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode parse(String json) {
    return JsonNode.parser().parse(json);
  }

  static Map<String, AttributeValue> item(JsonNode object) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    object.asObject().forEach((name, value) -> out.put(name, value(value)));
    return out;
  }

  private static AttributeValue value(JsonNode typed) {
    Map.Entry<String, JsonNode> e = typed.asObject().entrySet().iterator().next();
    JsonNode v = e.getValue();
    return switch (e.getKey()) {
      case "S" -> AttributeValue.fromS(v.asString());
      case "N" -> AttributeValue.fromN(v.asString());
      case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(
          java.util.Base64.getDecoder().decode(v.asString())));
      case "BOOL" -> AttributeValue.fromBool(v.asBoolean());
      case "NULL" -> AttributeValue.fromNul(v.asBoolean());
      case "M" -> AttributeValue.fromM(item(v));
      case "L" -> AttributeValue.fromL(v.asArray().stream().map(ExportedFiles::value).toList());
      case "SS" -> AttributeValue.fromSs(v.asArray().stream().map(JsonNode::asString).toList());
      case "NS" -> AttributeValue.fromNs(v.asArray().stream().map(JsonNode::asString).toList());
      case "BS" -> AttributeValue.fromBs(v.asArray().stream()
          .map(b -> SdkBytes.fromByteArray(java.util.Base64.getDecoder().decode(b.asString())))
          .toList());
      default -> throw new AssertionError("not a DynamoDB type: " + e.getKey());
    };
  }
}
