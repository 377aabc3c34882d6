package io.stator.server;

import io.stator.Stator;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * A short run of the server that the launcher records as a class-data archive (the JVM's
 * application class-data sharing), so that later starts map the classes a server needs instead
 * of loading and verifying them from the jar: about a third of the start-up time.
 *
 * <p>It starts a server on each storage, sends it the calls a first session makes (CreateTable,
 * PutItem, GetItem, Query, ListTables) over a plain socket, and stops. The launcher runs it
 * once per build with {@code -XX:ArchiveClassesAtExit}; it is hidden from the help because a
 * user has no reason to call it.
 */
@Command(name = "class-data-training", hidden = true)
final class ClassDataTraining implements Callable<Integer> {
  private static final String[][] CALLS = {
    {"CreateTable", "{\"TableName\":\"training\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
        + "\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
        + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":"
        + "\"sk\",\"KeyType\":\"RANGE\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}"},
    {"PutItem", "{\"TableName\":\"training\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
        + "\"v\":{\"S\":\"x\"}}}"},
    {"GetItem", "{\"TableName\":\"training\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}"},
    {"Query", "{\"TableName\":\"training\",\"KeyConditionExpression\":\"pk = :p\","
        + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"a\"}}}"},
    {"ListTables", "{}"},
  };

  @Override
  public Integer call() throws IOException {
    train(new MemoryStorage());
    Path dir = Files.createTempDirectory("stator-class-data");
    try {
      train(RocksDbStorage.open(dir.resolve("data")));
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return 0;
  }

  /** Serves the first session's calls on the storage; returns the response bodies, in order. */
  static List<String> train(io.stator.storage.Storage storage) throws IOException {
    List<String> bodies = new ArrayList<>();
    try (StatorServer server =
        StatorServer.start("127.0.0.1", 0, Stator.open(storage), "us-east-1", true)) {
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        for (String[] call : CALLS) {
          byte[] body = call[1].getBytes(StandardCharsets.UTF_8);
          String head = "POST / HTTP/1.1\r\nHost: localhost\r\n"
              + "Content-Type: application/x-amz-json-1.0\r\n"
              + "X-Amz-Target: DynamoDB_20120810." + call[0] + "\r\n"
              + "Authorization: AWS4-HMAC-SHA256 Credential=training/20260101/us-east-1/"
              + "dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n"
              + "Content-Length: " + body.length + "\r\n\r\n";
          out.write(head.getBytes(StandardCharsets.US_ASCII));
          out.write(body);
          out.flush();
          bodies.add(readResponse(in));
        }
      }
    }
    return bodies;
  }

  /** Reads one response (headers, then Content-Length bytes of body); it must be a 200. */
  private static String readResponse(InputStream in) throws IOException {
    StringBuilder headers = new StringBuilder();
    while (!headers.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the training server closed the connection");
      }
      headers.append((char) b);
    }
    int length = 0;
    for (String line : headers.toString().split("\r\n")) {
      if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    if (!headers.toString().startsWith("HTTP/1.1 200")) {
      throw new IOException("the training server answered "
          + headers.substring(0, headers.indexOf("\r\n")) + ": "
          + new String(body, StandardCharsets.UTF_8));
    }
    return new String(body, StandardCharsets.UTF_8);
  }
}
