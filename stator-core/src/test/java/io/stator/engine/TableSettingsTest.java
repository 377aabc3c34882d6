package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeLimitsRequest;
import io.stator.api.DescribeLimitsResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.DynamoDbStreams;
import io.stator.api.Endpoint;
import io.stator.api.ErrorType;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ListTagsOfResourceResponse;
import io.stator.api.PointInTimeRecoveryDescription;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.SSEDescription;
import io.stator.api.SSESpecification;
import io.stator.api.Stream;
import io.stator.api.StreamSpecification;
import io.stator.api.TableClassSummary;
import io.stator.api.TableDescription;
import io.stator.api.Tag;
import io.stator.api.TagResourceRequest;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.capacity.ManualClock;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deletion protection, tags, table class, server-side encryption, the point-in-time recovery
 * flag, DescribeLimits and DescribeEndpoints on the engine.
 */
class TableSettingsTest {
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/";

  final ManualClock clock = new ManualClock(START);
  final MemoryStorage storage = new MemoryStorage();
  final Database db = Stator.open(storage, EngineOptions.defaults().withClock(clock));

  @AfterEach
  void close() {
    db.close();
  }

  private static CreateTableRequest createWith(
      String name, List<Tag> tags, String tableClass, Boolean protection, SSESpecification sse) {
    CreateTableRequest r = create(name, "pk", "S", null, null);
    return new CreateTableRequest(
        r.tableName(), r.attributeDefinitions(), r.keySchema(), null, null, r.billingMode(),
        null, null, tags, tableClass, protection, sse, null, null);
  }

  private static UpdateTableRequest update(
      String name, String tableClass, Boolean protection, SSESpecification sse) {
    return new UpdateTableRequest(
        name, null, null, null, null, null, tableClass, protection, sse, null);
  }

  private TableDescription describe(String name) {
    return db.describeTable(new DescribeTableRequest(name)).table();
  }

  // ---- deletion protection ------------------------------------------------------------------

  @Test
  void aProtectedTableCannotBeDeletedUntilProtectionIsDisabled() {
    db.createTable(createWith("Orders", null, null, true, null));
    assertThat(describe("Orders").deletionProtectionEnabled()).isTrue();
    expect(() -> db.deleteTable(new DeleteTableRequest("Orders")), ErrorType.ValidationException,
        "Resource cannot be deleted as it is currently protected against deletion. Disable"
            + " deletion protection first.");
    assertThat(describe("Orders").tableStatus()).isEqualTo("ACTIVE");

    TableDescription updated =
        db.updateTable(update("Orders", null, false, null)).tableDescription();
    assertThat(updated.deletionProtectionEnabled()).isFalse();
    db.deleteTable(new DeleteTableRequest("Orders"));
    expect(() -> describe("Orders"), ErrorType.ResourceNotFoundException,
        "Requested resource not found: Table: Orders not found");
  }

  @Test
  void settingsAndStreamsLiveSideBySide() {
    CreateTableRequest r = createWith("Orders", List.of(new Tag("team", "blue")), null, true,
        null);
    db.createTable(new CreateTableRequest(
        r.tableName(), r.attributeDefinitions(), r.keySchema(), null, null, r.billingMode(),
        null, new StreamSpecification(true, "NEW_IMAGE"), r.tags(), null, true, null, null, null));
    TableDescription created = describe("Orders");
    assertThat(created.streamSpecification())
        .isEqualTo(new StreamSpecification(true, "NEW_IMAGE"));
    assertThat(created.latestStreamArn()).startsWith(ARN + "Orders/stream/");
    assertThat(created.deletionProtectionEnabled()).isTrue();

    // settings changes keep the stream, a stream change keeps the settings
    db.tagResource(new TagResourceRequest(ARN + "Orders", List.of(new Tag("env", "prod"))));
    TableDescription unprotected =
        db.updateTable(update("Orders", null, false, null)).tableDescription();
    assertThat(unprotected.latestStreamArn()).isEqualTo(created.latestStreamArn());
    assertThat(unprotected.streamSpecification()).isEqualTo(created.streamSpecification());
    TableDescription disabled = db.updateTable(new UpdateTableRequest(
        "Orders", null, null, null, null, new StreamSpecification(false, null), null, null))
        .tableDescription();
    assertThat(disabled.streamSpecification()).isNull();
    assertThat(disabled.deletionProtectionEnabled()).isFalse();
    assertThat(db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", null)).tags())
        .containsExactlyInAnyOrder(new Tag("team", "blue"), new Tag("env", "prod"));
    assertThat(((DynamoDbStreams) db).listStreams(new ListStreamsRequest("Orders", null, null))
            .streams())
        .extracting(Stream::streamArn)
        .containsExactly(created.latestStreamArn());
  }

  @Test
  void protectionCanBeTurnedOnLaterAndAMissingTableIsNotFoundFirst() {
    db.createTable(create("Orders", "pk", "S", null, null));
    assertThat(describe("Orders").deletionProtectionEnabled()).isFalse();
    db.updateTable(update("Orders", null, true, null));
    expect(() -> db.deleteTable(new DeleteTableRequest("Orders")), ErrorType.ValidationException,
        "Resource cannot be deleted as it is currently protected against deletion. Disable"
            + " deletion protection first.");
    expect(() -> db.deleteTable(new DeleteTableRequest("Nothing")),
        ErrorType.ResourceNotFoundException,
        "Requested resource not found: Table: Nothing not found");
  }

  @Test
  void settingsSurviveAReopen() {
    db.createTable(createWith("Orders", List.of(new Tag("team", "blue")),
        "STANDARD_INFREQUENT_ACCESS", true, new SSESpecification(true, "KMS", "my-key")));
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
        "Orders", new PointInTimeRecoverySpecification(true, 7)));
    Database again = Stator.open(storage, EngineOptions.defaults().withClock(clock));
    TableDescription d = again.describeTable(new DescribeTableRequest("Orders")).table();
    assertThat(d.deletionProtectionEnabled()).isTrue();
    assertThat(d.tableClassSummary())
        .isEqualTo(new TableClassSummary("STANDARD_INFREQUENT_ACCESS", null));
    assertThat(d.sseDescription().kmsMasterKeyArn())
        .isEqualTo("arn:aws:kms:us-east-1:000000000000:key/my-key");
    assertThat(again.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", null))
            .tags())
        .containsExactly(new Tag("team", "blue"));
    assertThat(again.describeContinuousBackups(new DescribeContinuousBackupsRequest("Orders"))
            .continuousBackupsDescription().pointInTimeRecoveryDescription()
            .recoveryPeriodInDays())
        .isEqualTo(7);
  }

  // ---- table class and encryption -----------------------------------------------------------

  @Test
  void tableClassIsShownOnceGivenWithTheTimeOfItsLastChange() {
    db.createTable(create("Plain", "pk", "S", null, null));
    assertThat(describe("Plain").tableClassSummary()).isNull();
    db.createTable(createWith("Given", null, "STANDARD", null, null));
    assertThat(describe("Given").tableClassSummary())
        .isEqualTo(new TableClassSummary("STANDARD", null));

    clock.advance(Duration.ofMinutes(3));
    TableDescription updated = db.updateTable(update("Plain", "STANDARD_INFREQUENT_ACCESS",
        null, null)).tableDescription();
    assertThat(updated.tableClassSummary()).isEqualTo(
        new TableClassSummary("STANDARD_INFREQUENT_ACCESS", START.plus(Duration.ofMinutes(3))));
    expect(() -> db.createTable(createWith("Bad", null, "COLD", null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'COLD' at 'tableClass' failed to satisfy constraint:"
            + " Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]");
  }

  @Test
  void encryptionWithKmsIsDescribedAndTheDefaultIsNot() {
    db.createTable(create("Default", "pk", "S", null, null));
    assertThat(describe("Default").sseDescription()).isNull();
    db.createTable(createWith("Owned", null, null, null, new SSESpecification(false, null, null)));
    assertThat(describe("Owned").sseDescription()).isNull();

    db.createTable(createWith("Managed", null, null, null, new SSESpecification(true, null, null)));
    SSEDescription managed = describe("Managed").sseDescription();
    assertThat(managed.status()).isEqualTo("ENABLED");
    assertThat(managed.sseType()).isEqualTo("KMS");
    assertThat(managed.kmsMasterKeyArn())
        .matches("arn:aws:kms:us-east-1:000000000000:key/[0-9a-f-]{36}");

    db.createTable(createWith("Aliased", null, null, null,
        new SSESpecification(true, "KMS", "alias/mine")));
    assertThat(describe("Aliased").sseDescription().kmsMasterKeyArn())
        .isEqualTo("arn:aws:kms:us-east-1:000000000000:alias/mine");

    db.updateTable(update("Default", null, null, new SSESpecification(true, "KMS", null)));
    assertThat(describe("Default").sseDescription().kmsMasterKeyArn())
        .isEqualTo(managed.kmsMasterKeyArn());
    db.updateTable(update("Default", null, null, new SSESpecification(false, null, null)));
    assertThat(describe("Default").sseDescription()).isNull();
    expect(() -> db.createTable(createWith("Bad", null, null, null,
            new SSESpecification(true, "DES", null))),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'DES' at 'sSESpecification.sSEType' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [AES256, KMS]");
  }

  // ---- tags ---------------------------------------------------------------------------------

  @Test
  void tagsAreAddedReplacedRemovedAndListedInPages() {
    db.createTable(createWith("Orders", List.of(new Tag("env", "test")), null, null, null));
    db.tagResource(new TagResourceRequest(ARN + "Orders",
        List.of(new Tag("env", "prod"), new Tag("team", ""))));
    assertThat(db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", null)))
        .isEqualTo(new ListTagsOfResourceResponse(
            List.of(new Tag("env", "prod"), new Tag("team", "")), null));
    db.untagResource(new UntagResourceRequest(ARN + "Orders", List.of("env", "absent")));
    assertThat(db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", null)).tags())
        .containsExactly(new Tag("team", ""));

    List<Tag> many = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      many.add(new Tag(String.format("k%02d", i), "v" + i));
    }
    db.tagResource(new TagResourceRequest(ARN + "Orders", many));
    List<Tag> all = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      ListTagsOfResourceResponse page =
          db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", token));
      assertThat(page.tags().size()).isLessThanOrEqualTo(Tagging.PAGE_SIZE);
      all.addAll(page.tags());
      token = page.nextToken();
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(all).hasSize(25).containsAll(many).contains(new Tag("team", ""));
  }

  @Test
  void tagsGoWithTheTable() {
    db.createTable(createWith("Orders", List.of(new Tag("env", "test")), null, null, null));
    db.deleteTable(new DeleteTableRequest("Orders"));
    db.createTable(create("Orders", "pk", "S", null, null));
    assertThat(db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Orders", null)).tags())
        .isEmpty();
  }

  @Test
  void tagLimits() {
    db.createTable(create("Orders", "pk", "S", null, null));
    String arn = ARN + "Orders";
    expect(() -> db.tagResource(new TagResourceRequest(arn, List.of(new Tag("aws:owner", "x")))),
        ErrorType.ValidationException, "Tag Key cannot be prefixed with aws:, Key: aws:owner");
    expect(() -> db.tagResource(new TagResourceRequest(arn,
            List.of(new Tag("k", "x"), new Tag("k", "y")))),
        ErrorType.ValidationException,
        "Duplicate Tag Keys provided as input: Duplicate Tag Key found k");
    List<Tag> fifty = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      fifty.add(new Tag("k" + i, "v"));
    }
    db.tagResource(new TagResourceRequest(arn, fifty));
    db.tagResource(new TagResourceRequest(arn, List.of(new Tag("k0", "replaced"))));
    expect(() -> db.tagResource(new TagResourceRequest(arn, List.of(new Tag("k50", "v")))),
        ErrorType.ValidationException,
        "Number of Tags exceed the current limit for the provided ResourceArn");
    String longKey = "k".repeat(129);
    expect(() -> db.tagResource(new TagResourceRequest(arn,
            List.of(new Tag(longKey, "v"), new Tag("", "x".repeat(257))))),
        ErrorType.ValidationException,
        "3 validation errors detected: Value '" + longKey + "' at 'tags.1.member.key' failed to"
            + " satisfy constraint: Member must have length less than or equal to 128; Value ''"
            + " at 'tags.2.member.key' failed to satisfy constraint: Member must have length"
            + " greater than or equal to 1; Value '" + "x".repeat(257) + "' at"
            + " 'tags.2.member.value' failed to satisfy constraint: Member must have length less"
            + " than or equal to 256");
    expect(() -> db.createTable(createWith("Tagged", List.of(new Tag("aws:x", "y")), null, null,
            null)),
        ErrorType.ValidationException, "Tag Key cannot be prefixed with aws:, Key: aws:x");
  }

  @Test
  void resourceArnErrors() {
    db.createTable(create("Orders", "pk", "S", null, null));
    List<Tag> tags = List.of(new Tag("a", "b"));
    expect(() -> db.tagResource(new TagResourceRequest(null, tags)),
        ErrorType.ValidationException, "Invalid TableArn");
    expect(() -> db.tagResource(new TagResourceRequest("Orders", tags)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: ARNs must start with 'arn:': Orders");
    expect(() -> db.tagResource(new TagResourceRequest(ARN + "Orders/index/byDate", tags)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Invalid resource arn provided, only table or"
            + " stream is accepted. Provided resource arn: " + ARN + "Orders/index/byDate");
    expect(() -> db.tagResource(new TagResourceRequest(ARN + "Orders", null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member"
            + " must not be null");
    expect(() -> db.tagResource(new TagResourceRequest(ARN + "Orders", List.of())),
        ErrorType.ValidationException, "Atleast one Tag needs to be provided as Input.");
    expect(() -> db.untagResource(new UntagResourceRequest(ARN + "Orders", List.of())),
        ErrorType.ValidationException, "Atleast one Tag Key needs to be provided as Input.");
    expect(() -> db.tagResource(new TagResourceRequest(ARN + "Missing", tags)),
        ErrorType.AccessDeniedException, denied("TagResource", ARN + "Missing"));
    expect(() -> db.listTagsOfResource(new ListTagsOfResourceRequest(ARN + "Missing", null)),
        ErrorType.AccessDeniedException, denied("ListTagsOfResource", ARN + "Missing"));
    expect(() -> db.untagResource(new UntagResourceRequest(ARN + "Missing", List.of("a"))),
        ErrorType.AccessDeniedException, denied("UntagResource", ARN + "Missing"));
    String otherRegion = "arn:aws:dynamodb:eu-west-1:000000000000:table/Orders";
    expect(() -> db.listTagsOfResource(new ListTagsOfResourceRequest(otherRegion, null)),
        ErrorType.ValidationException,
        "Invalid TableArn: Invalid ResourceArn provided as input " + otherRegion);
    String otherAccount = "arn:aws:dynamodb:us-east-1:111111111111:table/Orders";
    expect(() -> db.listTagsOfResource(new ListTagsOfResourceRequest(otherAccount, null)),
        ErrorType.AccessDeniedException, denied("ListTagsOfResource", otherAccount));
  }

  /** DynamoDB's refusal of a well-formed ARN of a table that is not there. */
  private static String denied(String operation, String arn) {
    return "User: arn:aws:iam::000000000000:user/stator is not authorized to perform: dynamodb:"
        + operation + " on resource: " + arn + " because no resource-based policy allows the"
        + " dynamodb:" + operation + " action";
  }

  // ---- continuous backups -------------------------------------------------------------------

  @Test
  void pointInTimeRecoveryIsOffUntilEnabledAndReportsItsWindow() {
    db.createTable(create("Orders", "pk", "S", null, null));
    var initial = db.describeContinuousBackups(new DescribeContinuousBackupsRequest("Orders"))
        .continuousBackupsDescription();
    assertThat(initial.continuousBackupsStatus()).isEqualTo("ENABLED");
    assertThat(initial.pointInTimeRecoveryDescription())
        .isEqualTo(new PointInTimeRecoveryDescription("DISABLED", null, null, null));

    var enabled = db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
            ARN + "Orders", new PointInTimeRecoverySpecification(true, null)))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
    assertThat(enabled.pointInTimeRecoveryStatus()).isEqualTo("ENABLED");
    assertThat(enabled.recoveryPeriodInDays()).isEqualTo(35);
    assertThat(enabled.earliestRestorableDateTime()).isEqualTo(START);
    assertThat(enabled.latestRestorableDateTime()).isEqualTo(START);

    clock.advance(Duration.ofDays(10));
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
        "Orders", new PointInTimeRecoverySpecification(true, 3)));
    var shorter = db.describeContinuousBackups(new DescribeContinuousBackupsRequest("Orders"))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
    Instant now = START.plus(Duration.ofDays(10));
    assertThat(shorter.recoveryPeriodInDays()).isEqualTo(3);
    assertThat(shorter.earliestRestorableDateTime()).isEqualTo(now.minus(Duration.ofDays(3)));
    // Stator's history is written with each change: restorable up to now, not five minutes back
    assertThat(shorter.latestRestorableDateTime()).isEqualTo(now);

    var disabled = db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
            "Orders", new PointInTimeRecoverySpecification(false, null)))
        .continuousBackupsDescription();
    assertThat(disabled.pointInTimeRecoveryDescription().pointInTimeRecoveryStatus())
        .isEqualTo("DISABLED");
  }

  @Test
  void continuousBackupsErrors() {
    db.createTable(create("Orders", "pk", "S", null, null));
    expect(() -> db.describeContinuousBackups(new DescribeContinuousBackupsRequest("Nothing")),
        ErrorType.TableNotFoundException, "Table not found: Nothing");
    expect(() -> db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
            "Nothing", new PointInTimeRecoverySpecification(true, null))),
        ErrorType.TableNotFoundException, "Table not found: Nothing");
    expect(() -> db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders", null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'pointInTimeRecoverySpecification' failed to"
            + " satisfy constraint: Member must not be null");
    expect(() -> db.updateContinuousBackups(new UpdateContinuousBackupsRequest(
            "Orders", new PointInTimeRecoverySpecification(true, 36))),
        ErrorType.ValidationException,
        "1 validation error detected: Value '36' at"
            + " 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy"
            + " constraint: Member must have value less than or equal to 35");
    expect(() -> db.describeContinuousBackups(new DescribeContinuousBackupsRequest(null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
            + " Member must not be null");
  }

  // ---- limits and endpoints -----------------------------------------------------------------

  @Test
  void limitsAreDynamoDbsDefaultQuotasAndTheEndpointIsTheRegions() {
    assertThat(db.describeLimits(new DescribeLimitsRequest()))
        .isEqualTo(new DescribeLimitsResponse(80_000L, 80_000L, 40_000L, 40_000L));
    assertThat(db.describeEndpoints(new DescribeEndpointsRequest()).endpoints())
        .containsExactly(new Endpoint("dynamodb.us-east-1.amazonaws.com", 1440));
  }

  private static void expect(ThrowingCallable call, ErrorType type, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(type);
          assertThat(e.getMessage()).isEqualTo(message);
        });
  }
}
