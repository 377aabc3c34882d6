package io.stator.junit;

import io.stator.capacity.CapacityMode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a Stator server in the test's JVM ({@link EmbeddedStator}), started
 * before its first test on a free port. Test methods, constructors and lifecycle methods take
 * what they need as parameters: the AWS SDK's {@code DynamoDbClient}, {@code
 * DynamoDbAsyncClient} or {@code DynamoDbStreamsClient} (each pointed at the server, with
 * dummy credentials, closed after the class or the test), the endpoint as a {@link
 * java.net.URI}, the {@link EmbeddedStator} itself, or its embedded {@link io.stator.api.Database}.
 *
 * <pre>{@code
 * @StatorTest
 * class OrdersTest {
 *   @Test
 *   void savesAnOrder(DynamoDbClient dynamo) {
 *     dynamo.createTable(...);
 *   }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(StatorExtension.class)
public @interface StatorTest {
  /** One server for the whole class (the default, fastest), or a fresh one for each test. */
  Lifecycle lifecycle() default Lifecycle.PER_CLASS;

  /** In memory (the default) or RocksDB in a temporary directory. */
  EmbeddedStator.StorageKind storage() default EmbeddedStator.StorageKind.MEMORY;

  /** Whether capacity only counts (the default) or throttles as DynamoDB does. */
  CapacityMode capacity() default CapacityMode.OBSERVE;

  /** Whether GSIs are written before a write answers (the default) or eventually. */
  boolean synchronousGlobalIndexes() default true;

  /** How long a server lives. */
  enum Lifecycle {
    PER_CLASS,
    PER_METHOD
  }
}
