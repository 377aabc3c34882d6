package io.stator.storage.cassandra;

import java.lang.reflect.Method;

/**
 * The main class of a node that {@link CassandraNode} starts tied to its own process: it watches
 * the process whose id the system property {@code stator.cassandra.parent} names, exits when that
 * process does (so a test JVM that is killed leaves no Cassandra behind holding a gigabyte), and
 * otherwise is {@code CassandraDaemon}. Runs inside the server's JVM, where only the JDK and
 * Cassandra's jars are, so it uses nothing else.
 */
final class NodeMain {
  private NodeMain() {}

  public static void main(String[] args) throws Exception {
    long parent = Long.parseLong(System.getProperty("stator.cassandra.parent"));
    ProcessHandle.of(parent)
        .ifPresentOrElse(
            handle -> handle.onExit().thenRun(NodeMain::exit),
            NodeMain::exit);
    // Reflection only because this class is compiled without Cassandra on its classpath.
    Class<?> daemon = Class.forName("org.apache.cassandra.service.CassandraDaemon");
    Method main = daemon.getMethod("main", String[].class);
    main.invoke(null, (Object) args);
  }

  private static void exit() {
    Thread halt =
        new Thread(
            () -> {
              try {
                Thread.sleep(15_000);
              } catch (InterruptedException e) {
                // halt at once
              }
              Runtime.getRuntime().halt(1);
            });
    halt.setDaemon(true);
    halt.start();
    System.exit(1);
  }
}
