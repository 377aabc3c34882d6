package io.stator.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.Stator;
import io.stator.server.ServerLimits;
import io.stator.server.StatorServer;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --auth sigv4} with boto3's own signer, the other SDK most DynamoDB users sign with: a
 * user's long-term and temporary keys, a wrong secret, and a policy's allow and deny, each
 * answered as DynamoDB answers boto3. Runs where {@code python3} imports boto3.
 */
class Boto3AccessTest {
  private static final String USERS = """
      {"Users": [{"UserName": "writer",
        "AccessKeys": [{"AccessKeyId": "AKIDWRITER", "SecretAccessKey": "writer-secret"},
                       {"AccessKeyId": "ASIAWRITER", "SecretAccessKey": "temp-secret",
                        "SessionToken": "the-token"}],
        "Policy": {"Version": "2012-10-17", "Statement": [
          {"Effect": "Allow", "Action": ["dynamodb:CreateTable", "dynamodb:PutItem",
                                         "dynamodb:DescribeTable"], "Resource": "*"}]}}]}
      """;

  /** Each call's outcome on a line of its own: "ok ..." or the error code and message. */
  private static final String SCRIPT = """
      import sys, boto3, botocore
      from botocore.config import Config
      endpoint = sys.argv[1]
      def client(key, secret, token=None):
          return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
              aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token,
              config=Config(retries={"max_attempts": 1}))
      def run(name, call):
          try:
              call()
              print(name, "ok")
          except botocore.exceptions.ClientError as e:
              print(name, e.response["Error"]["Code"], e.response["Error"]["Message"])
      writer = client("AKIDWRITER", "writer-secret")
      run("create", lambda: writer.create_table(TableName="Notes",
          KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
          AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
          BillingMode="PAY_PER_REQUEST"))
      run("put", lambda: writer.put_item(TableName="Notes", Item={"id": {"S": "a"}}))
      run("get", lambda: writer.get_item(TableName="Notes", Key={"id": {"S": "a"}}))
      temporary = client("ASIAWRITER", "temp-secret", "the-token")
      run("temporary", lambda: temporary.put_item(TableName="Notes", Item={"id": {"S": "b"}}))
      run("notoken", lambda: client("ASIAWRITER", "temp-secret").put_item(
          TableName="Notes", Item={"id": {"S": "c"}}))
      run("wrong", lambda: client("AKIDWRITER", "not-the-secret").put_item(
          TableName="Notes", Item={"id": {"S": "d"}}))
      """;

  @TempDir Path directory;

  @Test
  void boto3SignsAndIsAuthorizedAsDynamoDbAnswersIt() throws Exception {
    assumeTrue(boto3Installed(), "python3 with boto3 is not installed");
    Path users = directory.resolve("users.json");
    Files.writeString(users, USERS);
    Path script = directory.resolve("calls.py");
    Files.writeString(script, SCRIPT);
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1",
        true, 1, ServerLimits.defaults(),
        new SigV4(Credentials.read(users), Clock.systemUTC()), null)) {
      String out = python(script.toString(), "http://127.0.0.1:" + server.port());
      assertThat(out.lines()).containsExactly(
          "create ok",
          "put ok",
          "get AccessDeniedException User: arn:aws:iam::000000000000:user/writer is not"
              + " authorized to perform: dynamodb:GetItem on resource:"
              + " arn:aws:dynamodb:us-east-1:000000000000:table/Notes because no identity-based"
              + " policy allows the dynamodb:GetItem action",
          "temporary ok",
          "notoken UnrecognizedClientException The security token included in the request is"
              + " invalid.",
          "wrong InvalidSignatureException The request signature we calculated does not match"
              + " the signature you provided. Check your AWS Secret Access Key and signing"
              + " method. Consult the service documentation for details.");
    }
  }

  private static boolean boto3Installed() {
    try {
      return python("-c", "import boto3").isEmpty();
    } catch (Exception | AssertionError e) {
      return false;
    }
  }

  private static String python(String... arguments) throws Exception {
    Path out = Files.createTempFile("boto3-out", ".txt");
    try {
      ProcessBuilder builder = new ProcessBuilder(
          java.util.stream.Stream.concat(java.util.stream.Stream.of("python3"),
              java.util.Arrays.stream(arguments)).toList())
          .redirectOutput(out.toFile()).redirectErrorStream(true);
      builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
      Process process = builder.start();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("python3 finished").isTrue();
      String text = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as(text).isZero();
      return text;
    } finally {
      Files.delete(out);
    }
  }
}
