package io.stator.junit;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The AWS SDK's clients pointed at a server, with dummy credentials (the server takes any well
 * signed request). Loaded only when a test asks for a client, so the SDK stays optional; each
 * client uses the HTTP client the test's classpath brings, as the SDK chooses it.
 */
final class SdkClients {
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

  private SdkClients() {}

  static AutoCloseable create(Class<?> type, URI endpoint) {
    if (type == DynamoDbClient.class) {
      return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
          .credentialsProvider(CREDENTIALS).build();
    }
    if (type == DynamoDbAsyncClient.class) {
      return DynamoDbAsyncClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
          .credentialsProvider(CREDENTIALS).build();
    }
    if (type == DynamoDbStreamsClient.class) {
      return DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
          .credentialsProvider(CREDENTIALS).build();
    }
    throw new IllegalArgumentException("not a client of DynamoDB: " + type.getName());
  }
}
