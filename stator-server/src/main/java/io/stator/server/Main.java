package io.stator.server;

import io.netty.handler.ssl.SslContext;
import io.netty.util.ResourceLeakDetector;
import io.stator.Stator;
import io.stator.api.Database;
import io.stator.capacity.CapacityMode;
import io.stator.engine.EngineOptions;
import io.stator.server.auth.Credential;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import io.stator.storage.Storage;
import io.stator.storage.cassandra.CassandraStorage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The {@code stator} command line. */
@Command(
    name = "stator",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Stator: a DynamoDB-compatible database.",
    subcommands = {
      Main.Serve.class, HotKeysCommand.class, CassandraCommand.class, ClassDataTraining.class,
      NativeLibraryCommand.class, ExportCommand.class, ImportCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @Spec CommandSpec spec;

  public static void main(String[] args) {
    // The Cassandra driver's log: warnings and errors only, unless asked for more.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    System.exit(commandLine().execute(args));
  }

  /** The command line, with usage errors reported briefly rather than with the whole help. */
  static CommandLine commandLine() {
    return new CommandLine(new Main()).setParameterExceptionHandler(Main::usageError);
  }

  /**
   * A mistyped option gets its one-line reason and a pointer to the help, as most command-line
   * tools do: printing the full help after it pushes the reason off the screen.
   */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("stator: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println(
        "Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing command: try 'stator serve' or 'stator --help'");
  }

  /** The project version, filtered into a resource by the build. */
  static String version() {
    Properties properties = new Properties();
    try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }

  /**
   * A duration as a number and a unit ({@code 250ms}, {@code 1s}, {@code 5m}, {@code 1h}), a
   * bare {@code 0}, or ISO-8601 ({@code PT1S}).
   */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
      String text = value.trim();
      if (text.equals("0")) {
        return Duration.ZERO;
      }
      Matcher m = SIMPLE.matcher(text);
      try {
        if (m.matches()) {
          long n = Long.parseLong(m.group(1));
          return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
          };
        }
        Duration d = Duration.parse(text);
        if (!d.isNegative()) {
          return d;
        }
      } catch (ArithmeticException | DateTimeParseException | NumberFormatException e) {
        // reported below
      }
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration (examples: 500ms, 1s, 5m, 1h, 0)");
    }
  }

  /** A size in bytes: a number with an optional unit k, m or g (powers of 1024), e.g. 512m. */
  static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d+)([kKmMgG]?)");

    @Override
    public Long convert(String value) {
      Matcher m = SIZE.matcher(value.trim());
      if (m.matches()) {
        int shift =
            switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
              case "k" -> 10;
              case "m" -> 20;
              case "g" -> 30;
              default -> 0;
            };
        try {
          long n = Long.parseLong(m.group(1));
          if (n <= Long.MAX_VALUE >> shift) {
            return n << shift;
          }
        } catch (NumberFormatException e) {
          // reported below
        }
      }
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a size (examples: 256m, 4g)");
    }
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"Stator " + version()};
    }
  }

  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      versionProvider = Main.Version.class,
      description = "Serve the DynamoDB API over HTTP until interrupted.")
  static final class Serve implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--port",
        defaultValue = "8000",
        description = "TCP port to listen on, 0 for any free port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
        names = "--host",
        defaultValue = "127.0.0.1",
        description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
        names = "--data-dir",
        description =
            "Directory of the durable RocksDB store, created when missing (default: stator-data"
                + " in the current directory).")
    Path dataDir;

    @Option(
        names = "--export-dir",
        description =
            "Directory that stands for S3 in ExportTableToPointInTime and ImportTable: an"
                + " S3Bucket is a directory in it, an S3Prefix a path in the bucket (default:"
                + " exports in the data directory of the RocksDB store; none in memory or on"
                + " Cassandra, where those operations are refused until it is given).")
    Path exportDir;

    @Option(
        names = "--in-memory",
        description = "Keep all data in memory; it is gone when the server stops.")
    boolean inMemory;

    @Option(
        names = "--storage",
        paramLabel = "<storage>",
        description =
            "Where the data lives: rocksdb (a directory, see --data-dir), memory (as"
                + " --in-memory) or cassandra (an Apache Cassandra 6 cluster with Accord, see"
                + " --contact-points and --keyspace). Default: rocksdb.")
    String storage;

    @Option(
        names = "--contact-points",
        paramLabel = "<host:port,...>",
        split = ",",
        description =
            "Cassandra nodes to connect to first, host:port (the native protocol port, 9042 by"
                + " default), with --storage cassandra.")
    List<String> contactPoints;

    @Option(
        names = "--keyspace",
        paramLabel = "<keyspace>",
        description =
            "Cassandra keyspace of Stator's tables, created with them when missing; one of"
                + " another layout version is refused"
                + " (default: " + CassandraStorage.DEFAULT_KEYSPACE + ").")
    String keyspace;

    @Option(
        names = "--local-datacenter",
        paramLabel = "<name>",
        description = "The Cassandra datacenter the driver calls local (default: datacenter1).")
    String localDatacenter;

    @Option(
        names = "--replication",
        paramLabel = "<cql map>",
        description =
            "Replication of a keyspace Stator creates, as CQL's map (default: {'class':"
                + " 'SimpleStrategy', 'replication_factor': 1}); an existing keyspace keeps its"
                + " own.")
    String replication;

    @Option(
        names = "--cache-size",
        converter = SizeConverter.class,
        paramLabel = "<size>",
        description =
            "Memory for the RocksDB store's caches (memtables, blocks read from its files,"
                + " recently used items), e.g. 256m or 4g; taken only as they fill (default: an"
                + " eighth of the machine's memory, between 64m and 256m). More reads large"
                + " tables faster.")
    Long cacheSize;

    @Option(
        names = "--event-loops",
        paramLabel = "<n>",
        description =
            "Threads that serve requests (default: one per core). Fewer leave cores to clients"
                + " on the same machine: lower tail latency for light calls such as GetItem, less"
                + " throughput for heavier ones.")
    Integer eventLoops;

    @Option(
        names = "--no-console",
        description = "Do not serve the web console at /stator/console.")
    boolean noConsole;

    @Option(
        names = "--region",
        defaultValue = "us-east-1",
        description = "Region shown in table ARNs (default: ${DEFAULT-VALUE}).")
    String region;

    @Option(
        names = "--gsi-lag",
        defaultValue = "0ms",
        converter = DurationConverter.class,
        paramLabel = "<duration>",
        description =
            "Delay before a write reaches the global secondary indexes, e.g. 500ms or 2s, to test"
                + " code against DynamoDB's eventual consistency (default: ${DEFAULT-VALUE}).")
    Duration gsiLag;

    @Option(
        names = "--ttl-sweep-interval",
        defaultValue = "1s",
        converter = DurationConverter.class,
        paramLabel = "<duration>",
        description =
            "Pause between rounds of the Time to Live sweeper, e.g. 500ms, 1s, 5m; 0 turns the"
                + " background sweeper off (POST /stator/ttl/sweep still sweeps)"
                + " (default: ${DEFAULT-VALUE}).")
    Duration ttlSweepInterval;

    @Option(
        names = "--capacity",
        defaultValue = "observe",
        description =
            "What to do when DynamoDB would throttle a request: observe (serve it, count the"
                + " throttle) or enforce (refuse it with"
                + " ProvisionedThroughputExceededException). Default: ${DEFAULT-VALUE}.")
    String capacity;

    @Option(
        names = "--max-connections",
        paramLabel = "<n>",
        description =
            "Connections served at once; one more is answered 503 and closed (default: three"
                + " quarters of the process's open-file limit, ulimit -n, leaving the rest to the"
                + " storage's files).")
    Integer maxConnections;

    @Option(
        names = "--idle-timeout",
        defaultValue = "2m",
        converter = DurationConverter.class,
        paramLabel = "<duration>",
        description =
            "Closes a connection that has waited this long with no request in progress, e.g. 30s"
                + " or 5m; 0 never closes it (default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(
        names = "--header-timeout",
        defaultValue = "10s",
        converter = DurationConverter.class,
        paramLabel = "<duration>",
        description =
            "Answers 408 and closes the connection when a request's headers take longer than"
                + " this from their first byte; 0 for no limit (default: ${DEFAULT-VALUE}).")
    Duration headerTimeout;

    @Option(
        names = "--body-timeout",
        defaultValue = "30s",
        converter = DurationConverter.class,
        paramLabel = "<duration>",
        description =
            "Answers 408 and closes the connection when a request's body takes longer than this"
                + " after its headers; 0 for no limit (default: ${DEFAULT-VALUE}).")
    Duration bodyTimeout;

    @Option(
        names = "--auth",
        defaultValue = "none",
        paramLabel = "none|sigv4",
        description =
            "none accepts any well-formed SigV4 signature, as tutorials and local tools expect;"
                + " sigv4 verifies each request's signature against the keys of --credentials"
                + " or of STATOR_ACCESS_KEY_ID and STATOR_SECRET_ACCESS_KEY (and"
                + " STATOR_SESSION_TOKEN) (default: ${DEFAULT-VALUE}).")
    String auth;

    @Option(
        names = "--credentials",
        paramLabel = "FILE",
        description =
            "The keys --auth sigv4 accepts: one a line, ACCESS_KEY_ID SECRET [SESSION_TOKEN];"
                + " blank lines and lines starting with # are ignored.")
    Path credentialsFile;

    @Option(
        names = "--tls-cert",
        paramLabel = "FILE",
        description = "Serve HTTPS with this certificate chain (PEM), with --tls-key.")
    Path tlsCertificate;

    @Option(
        names = "--tls-key",
        paramLabel = "FILE",
        description = "The certificate's private key (PEM, PKCS#8, unencrypted), with --tls-cert.")
    Path tlsKey;

    @Option(
        names = "--tls-self-signed",
        description = "Serve HTTPS with a certificate for localhost made once in ./stator-tls"
            + " (trust its cert.pem, e.g. AWS_CA_BUNDLE=stator-tls/cert.pem for the AWS CLI).")
    boolean tlsSelfSigned;

    @Override
    public Integer call() throws Exception {
      CapacityMode mode = capacityMode();
      ServerLimits limits = limits();
      SigV4 signatures = signatures();
      SslContext tls = tls();
      // Netty samples one buffer in 128 for leak tracking and records a stack trace at each of
      // its uses: ~1% of a GetItem's CPU. The tests, which start servers of their own, keep it;
      // -Dio.netty.leakDetection.level turns it back on here.
      if (System.getProperty("io.netty.leakDetection.level") == null) {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
      }
      PrintWriter err = spec.commandLine().getErr();
      String kind = storageKind();
      Storage storage = openStorage(kind, err);
      if (storage == null) {
        return 1;
      }
      Database database =
          Stator.open(
              storage,
              EngineOptions.defaults()
                  .withRegion(region)
                  .withTimeToLiveSweepInterval(ttlSweepInterval)
                  .withCapacityMode(mode)
                  .withGsiLag(gsiLag)
                  .withExportDirectory(exportDirectory(kind)));
      StatorServer server;
      try {
        server =
            StatorServer.start(
                host,
                port,
                database,
                region,
                callsOnEventLoops(kind),
                eventLoops != null ? eventLoops : StatorServer.defaultEventLoops(),
                limits,
                signatures,
                tls);
      } catch (Exception e) {
        database.close();
        err.println("stator: cannot listen on " + host + ":" + port + ": " + bindProblem(e));
        err.flush();
        return 1;
      }
      server.serveConsole(!noConsole);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stator-shutdown"));
      PeriodicCollection.follow();
      announce(server, kind, mode, limits, signatures != null, tls != null);
      // The server runs on its own threads; this one waits for SIGINT/SIGTERM, whose shutdown
      // hook closes the server and the storage.
      Thread.currentThread().join();
      return 0;
    }

    /**
     * Says where the server listens and how (the first line is what scripts wait for), where the
     * console is, and warns when anyone on the network may use it without a signature.
     */
    private void announce(StatorServer server, String kind, CapacityMode mode, ServerLimits limits,
        boolean verified, boolean https) {
      PrintWriter err = spec.commandLine().getErr();
      PrintWriter out = spec.commandLine().getOut();
      String scheme = https ? "https" : "http";
      out.printf(
          "Stator %s listening on %s://%s:%d (%s, capacity %s, at most %d connections%s)%n",
          version(), scheme, hostForUrl(host), server.port(),
          storeDescription(kind), mode.name().toLowerCase(java.util.Locale.ROOT),
          limits.maxConnections(), verified ? ", signatures verified" : "");
      if (!noConsole) {
        out.printf("Console: %s://%s:%d%s%n", scheme, hostForUrl(host),
            server.port(), Console.PATH);
      }
      out.flush();
      if (!verified && !isLoopback(host)) {
        err.println("stator: warning: listening on " + host + " without --auth sigv4: anyone"
            + " who can reach this port can read, change and delete every table");
        err.flush();
      }
    }

    private CapacityMode capacityMode() {
      try {
        return CapacityMode.parse(capacity);
      } catch (IllegalArgumentException e) {
        throw usage("--capacity must be observe or enforce, not " + capacity);
      }
    }

    /** The connection limit and timeouts, once the numeric options are checked. */
    private ServerLimits limits() {
      if (port < 0 || port > 65535) {
        throw usage("--port must be between 0 and 65535, not " + port);
      }
      if (cacheSize != null && cacheSize < RocksDbStorage.MIN_MEMORY_BYTES) {
        throw usage("--cache-size must be at least " + (RocksDbStorage.MIN_MEMORY_BYTES >> 20)
            + "m, not " + cacheSize + " bytes");
      }
      if (eventLoops != null && eventLoops < 1) {
        throw usage("--event-loops must be at least 1, not " + eventLoops);
      }
      if (maxConnections != null && maxConnections < 1) {
        throw usage("--max-connections must be at least 1, not " + maxConnections);
      }
      ServerLimits limits =
          ServerLimits.defaults()
              .withIdleTimeout(idleTimeout)
              .withHeaderTimeout(headerTimeout)
              .withBodyTimeout(bodyTimeout);
      return maxConnections != null ? limits.withMaxConnections(maxConnections) : limits;
    }

    /** The store --storage names, or null once {@code err} says why it cannot be opened. */
    private Storage openStorage(String kind, PrintWriter err) {
      if (kind.equals("cassandra")) {
        List<InetSocketAddress> nodes = contactPoints();
        try {
          return openCassandra(nodes, keyspace());
        } catch (RuntimeException e) {
          err.println("stator: cannot use Cassandra at " + String.join(",", contactPoints) + ": "
              + e.getMessage());
          err.flush();
          return null;
        }
      }
      if (inMemory) {
        return new MemoryStorage();
      }
      Path dir = dataDirectory();
      try {
        return RocksDbStorage.open(
            dir, cacheSize != null ? cacheSize : RocksDbStorage.defaultMemoryBytes());
      } catch (RuntimeException e) {
        err.println("stator: cannot open the data directory " + dir + ": " + storeProblem(e));
        err.flush();
        return null;
      }
    }

    /** Where the data lives, as the start line says it. */
    private String storeDescription(String kind) {
      if (kind.equals("cassandra")) {
        return "Cassandra at " + String.join(",", contactPoints) + ", keyspace " + keyspace();
      }
      return inMemory ? "in memory" : "RocksDB at " + dataDirectory();
    }

    /** Where S3 buckets are: --export-dir, else a directory in the RocksDB store's. */
    private Path exportDirectory(String kind) {
      if (exportDir != null) {
        return exportDir;
      }
      return kind.equals("rocksdb") ? dataDirectory().resolve("exports") : null;
    }

    private Path dataDirectory() {
      return dataDir != null ? dataDir : Path.of("stator-data");
    }

    private String keyspace() {
      return keyspace != null ? keyspace : CassandraStorage.DEFAULT_KEYSPACE;
    }

    /**
     * The signature check of {@code --auth}: null for none; for sigv4, the keys of
     * --credentials and of the environment, at least one.
     */
    private SigV4 signatures() {
      if (auth.equals("none")) {
        if (credentialsFile != null) {
          throw usage("--credentials is for --auth sigv4");
        }
        return null;
      }
      if (!auth.equals("sigv4")) {
        throw usage("--auth must be none or sigv4, not " + auth);
      }
      java.util.List<Credential> keys = new java.util.ArrayList<>();
      if (credentialsFile != null) {
        try {
          keys.addAll(Credentials.read(credentialsFile).all());
        } catch (java.io.IOException | IllegalArgumentException e) {
          throw usage("cannot read --credentials " + credentialsFile + ": " + e.getMessage());
        }
      }
      java.util.List<Credential> fromEnvironment = environmentKey();
      keys.addAll(fromEnvironment);
      if (keys.isEmpty()) {
        throw usage("--auth sigv4 needs keys: --credentials FILE, or STATOR_ACCESS_KEY_ID and"
            + " STATOR_SECRET_ACCESS_KEY in the environment");
      }
      SigV4 signatures = new SigV4(Credentials.of(keys), java.time.Clock.systemUTC());
      if (credentialsFile != null) {
        CredentialsReload.start(
            signatures, credentialsFile, fromEnvironment, spec.commandLine().getErr());
      }
      return signatures;
    }

    /** The key of STATOR_ACCESS_KEY_ID and STATOR_SECRET_ACCESS_KEY, if set. */
    private java.util.List<Credential> environmentKey() {
      String id = System.getenv("STATOR_ACCESS_KEY_ID");
      if (id == null) {
        return java.util.List.of();
      }
      try {
        return java.util.List.of(new Credential(id, System.getenv("STATOR_SECRET_ACCESS_KEY"),
            System.getenv("STATOR_SESSION_TOKEN")));
      } catch (IllegalArgumentException e) {
        throw usage("STATOR_ACCESS_KEY_ID is set: " + e.getMessage()
            + " (STATOR_SECRET_ACCESS_KEY)");
      }
    }

    /** HTTPS from --tls-cert and --tls-key, or null for plain HTTP. */
    private SslContext tls() {
      if (tlsSelfSigned) {
        if (tlsCertificate != null || tlsKey != null) {
          throw usage("--tls-self-signed and --tls-cert/--tls-key cannot be used together");
        }
        Path dir = Path.of("stator-tls");
        try {
          SslContext context = Tls.selfSigned(dir);
          spec.commandLine().getErr().println("stator: HTTPS with the self-signed certificate"
              + " of " + dir.resolve("cert.pem") + "; clients must trust it (for the AWS CLI:"
              + " AWS_CA_BUNDLE=" + dir.resolve("cert.pem") + ")");
          return context;
        } catch (java.io.IOException e) {
          throw usage("--tls-self-signed: " + e.getMessage());
        }
      }
      if (tlsCertificate == null && tlsKey == null) {
        return null;
      }
      if (tlsCertificate == null || tlsKey == null) {
        throw usage("--tls-cert and --tls-key go together");
      }
      try {
        return Tls.fromPem(tlsCertificate.toFile(), tlsKey.toFile());
      } catch (IllegalArgumentException e) {
        throw usage("cannot use --tls-cert " + tlsCertificate + " and --tls-key " + tlsKey + ": "
            + e.getMessage());
      }
    }

    /** A usage error of this command: its one-line reason and a pointer to the help. */
    private CommandLine.ParameterException usage(String message) {
      return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * Whether the {@link Database} calls run on the event loops: for the local storages, whose
     * rare wait costs less than a hand-off on every request (measured, see {@link StatorServer});
     * not for Cassandra, where a call waits on the network and a stalled node holds a call up to
     * the driver's request timeout: on workers apart from the loops, a stall holds up only the
     * connections of the workers that wait (see docs/cassandra.md).
     */
    static boolean callsOnEventLoops(String storageKind) {
      return !storageKind.equals("cassandra");
    }

    /** The storage named by --storage and --in-memory, checked against the other options. */
    private String storageKind() {
      String kind = storage == null ? (inMemory ? "memory" : "rocksdb") : storage;
      if (!List.of("rocksdb", "memory", "cassandra").contains(kind)) {
        throw usage("--storage must be rocksdb, memory or cassandra, not " + kind);
      }
      if (inMemory && !kind.equals("memory")) {
        throw usage("--in-memory and --storage " + kind + " cannot be used together");
      }
      inMemory = kind.equals("memory");
      boolean cassandraOptions =
          contactPoints != null || keyspace != null || localDatacenter != null
              || replication != null;
      if (!kind.equals("cassandra") && cassandraOptions) {
        throw usage("--contact-points, --keyspace, --local-datacenter and --replication are for"
            + " --storage cassandra");
      }
      if (kind.equals("cassandra") && (dataDir != null || cacheSize != null)) {
        throw usage(
            "--data-dir and --cache-size are for the RocksDB store, not --storage cassandra");
      }
      if (kind.equals("memory") && cacheSize != null) {
        throw usage("--cache-size is for the RocksDB store, not --in-memory");
      }
      if (kind.equals("memory") && dataDir != null) {
        throw usage("--data-dir and --in-memory cannot be used together");
      }
      return kind;
    }

    /** The --contact-points as addresses, each host:port. */
    private List<InetSocketAddress> contactPoints() {
      if (contactPoints == null || contactPoints.isEmpty()) {
        throw usage("--storage cassandra needs --contact-points host:port,...");
      }
      List<InetSocketAddress> nodes = new ArrayList<>();
      for (String point : contactPoints) {
        int colon = point.lastIndexOf(':');
        int port = -1;
        try {
          port = colon > 0 ? Integer.parseInt(point.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
          // reported below
        }
        if (port < 1 || port > 65535) {
          throw usage("--contact-points takes host:port, not " + point);
        }
        String host = point.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
          host = host.substring(1, host.length() - 1);
        }
        nodes.add(InetSocketAddress.createUnresolved(host, port));
      }
      return nodes;
    }

    /** Connects to the cluster; the store is Stator's one store in the keyspace, "stator". */
    Storage openCassandra(List<InetSocketAddress> nodes, String space) {
      List<InetSocketAddress> resolved = new ArrayList<>();
      for (InetSocketAddress node : nodes) {
        resolved.add(new InetSocketAddress(node.getHostString(), node.getPort()));
      }
      return CassandraStorage.connect(
          resolved,
          localDatacenter != null ? localDatacenter : "datacenter1",
          space,
          replication != null
              ? replication
              : "{'class': 'SimpleStrategy', 'replication_factor': 1}",
          "stator");
    }

    /**
     * Why the store would not open, in the words a user acts on: RocksDB's own message for a
     * second server on the same directory ("While lock file: .../LOCK: Resource temporarily
     * unavailable") and the JDK's bare path for a file in the way say neither.
     */
    static String storeProblem(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        String message = String.valueOf(t.getMessage());
        if (message.contains("lock file") || message.contains("LOCK")) {
          return "another Stator server is using it (stop that one, or choose another"
              + " --data-dir or --in-memory)";
        }
        if (t instanceof FileAlreadyExistsException
            || t instanceof NotDirectoryException) {
          return "it is not a directory";
        }
        if (t instanceof AccessDeniedException) {
          return "permission denied";
        }
        if (t instanceof NoSuchFileException fs) {
          return "cannot create " + fs.getFile() + " (no such file or directory)";
        }
        if (t instanceof FileSystemException fs) {
          return fs.getReason() != null ? fs.getReason() : "cannot create " + fs.getFile();
        }
      }
      return e.getMessage();
    }

    /** Why the port could not be bound, with the usual way out when it is taken. */
    static String bindProblem(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        String message = String.valueOf(t.getMessage());
        if (message.contains("Address already in use")) {
          return "the address is already in use (is another server running? choose another"
              + " --port)";
        }
        if (message.contains("Cannot assign requested address")) {
          return "no network interface of this machine has that address (127.0.0.1 is this"
              + " machine alone, 0.0.0.0 every interface)";
        }
        if (t instanceof java.nio.channels.UnresolvedAddressException
            || t instanceof java.net.UnknownHostException) {
          return "the host is not a name or an address this machine can resolve";
        }
      }
      return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static boolean isLoopback(String host) {
      try {
        return java.net.InetAddress.getByName(host).isLoopbackAddress();
      } catch (java.net.UnknownHostException e) {
        return false;
      }
    }

    private static String hostForUrl(String host) {
      return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
  }
}
