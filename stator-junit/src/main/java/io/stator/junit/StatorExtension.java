package io.stator.junit;

import io.stator.api.Database;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link StatorTest}: starts an {@link EmbeddedStator} per class or
 * per test, keeps it in the context's store with the clients made for it (all closed when the
 * scope ends), and resolves the parameters {@link StatorTest} lists. The AWS SDK's types are
 * named rather than referenced here, so that a test without the SDK on its classpath still runs.
 */
public final class StatorExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(StatorExtension.class);
  private static final String SERVER = "server";
  private static final Set<String> SDK_CLIENTS = Set.of(
      "software.amazon.awssdk.services.dynamodb.DynamoDbClient",
      "software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient",
      "software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient");

  @Override
  public void beforeAll(ExtensionContext context) {
    if (settings(context).lifecycle() == StatorTest.Lifecycle.PER_CLASS) {
      start(context);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (settings(context).lifecycle() == StatorTest.Lifecycle.PER_METHOD) {
      start(context);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == EmbeddedStator.class || type == URI.class || type == Database.class
        || SDK_CLIENTS.contains(type.getName());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    EmbeddedStator stator = running(context).orElseGet(() -> start(context));
    Class<?> type = parameter.getParameter().getType();
    if (type == EmbeddedStator.class) {
      return stator;
    }
    if (type == URI.class) {
      return stator.endpoint();
    }
    if (type == Database.class) {
      return stator.database();
    }
    AutoCloseable client = SdkClients.create(type, stator.endpoint());
    context.getStore(NAMESPACE).put(client, (ExtensionContext.Store.CloseableResource)
        client::close);
    return client;
  }

  /** The server of this context or of an enclosing one (a nested class, the test's class). */
  private static Optional<EmbeddedStator> running(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Server server = c.getStore(NAMESPACE).get(SERVER, Server.class);
      if (server != null) {
        return Optional.of(server.stator());
      }
    }
    return Optional.empty();
  }

  private static EmbeddedStator start(ExtensionContext context) {
    StatorTest settings = settings(context);
    EmbeddedStator stator = EmbeddedStator.builder()
        .storage(settings.storage())
        .capacity(settings.capacity())
        .synchronousGlobalIndexes(settings.synchronousGlobalIndexes())
        .start();
    context.getStore(NAMESPACE).put(SERVER, new Server(stator));
    return stator;
  }

  private static StatorTest settings(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Optional<StatorTest> found = c.getTestClass()
          .flatMap(type -> AnnotationSupport.findAnnotation(type, StatorTest.class));
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw new ExtensionConfigurationException(
        "StatorExtension runs on classes annotated with @StatorTest");
  }

  /** A server in a store, closed with it. */
  private record Server(EmbeddedStator stator) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      stator.close();
    }
  }
}
