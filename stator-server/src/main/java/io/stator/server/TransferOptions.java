package io.stator.server;

import java.util.Map;
import picocli.CommandLine.Option;

/** The options {@code stator export} and {@code stator import} share: the server, the progress. */
final class TransferOptions {
  @Option(names = "--endpoint", defaultValue = "http://localhost:8000",
      description = "The Stator server (default: ${DEFAULT-VALUE}).")
  String endpoint;

  @Option(names = "--progress", defaultValue = "auto",
      description = "auto (a bar on a terminal, else a line every 10 s), bar, lines or none.")
  String progress;

  /** Where the AWS credentials come from (AWS_ACCESS_KEY_ID, ...); they sign the requests. */
  Map<String, String> environment = System.getenv();

  DynamoDbApi api() {
    return new DynamoDbApi(endpoint, environment);
  }

  TransferProgress.Mode mode() {
    return TransferProgress.Mode.of(progress);
  }
}
