package io.stator.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.stator.api.Database;
import io.netty.handler.ssl.SslContext;
import io.stator.server.auth.SigV4;
import io.stator.storage.GroupCommit;
import java.net.InetSocketAddress;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;

/**
 * The DynamoDB HTTP front door over a {@link Database}.
 *
 * <p>{@code StatorServer.start(host, port, database)} binds (port 0 picks a free port) and
 * returns once the server accepts connections; {@link #port()} tells the bound port; {@link
 * #close()} stops it and closes the database.
 *
 * <p>Threads, two ways, chosen by whoever starts the server (the command line takes the first
 * for memory and RocksDB, the second for Cassandra):
 *
 * <ul>
 *   <li><b>Calls on the event loops</b>: an event loop (by default one per core, see {@link
 *       #defaultEventLoops()}) decodes a request, calls the
 *       {@link Database} and writes the answer, on the connection's own thread. Nothing waits on
 *       another thread, so a request costs no hand-off. Measured under the load benchmark (16
 *       connections, 2 cores): GetItem in memory 16-21 µs of server CPU per request against
 *       31-41 µs with the worker hop; PutItem on RocksDB about 65 µs less per request (the hop
 *       there and back, and the wake-ups of the loop that writes the answer). A call that
 *       blocks holds up the other connections of its loop. In memory nothing blocks (the lock
 *       is held only while another call does its own CPU work, at most a Scan page of 1 MB).
 *       On RocksDB a read may miss the block cache and wait for the disk, and a write may
 *       stall behind a memtable flush or compaction; but writes do not wait for an fsync (the
 *       WAL is written with {@code sync=false}, see {@code RocksDbStorage}, once per turn of
 *       the loop for all its answers, see {@link HeldAnswers}), a stall holds up
 *       every writer whichever thread it runs on, and a local database's working set is in the
 *       page cache, so the rare wait costs less than a hand-off on every request.
 *   <li><b>Calls on workers</b>: the event loops (half the cores) only move bytes, and the
 *       {@link Database} call runs on a {@link DefaultEventExecutorGroup}, which pins each
 *       connection to one of its threads; for a {@link Database} whose calls may block for long
 *       (a remote storage), where a wait should stall only the connections pinned to that
 *       worker. Reads alone cannot move to the loops: pipelined requests of one connection must
 *       be answered in order, and a read answered inline would overtake a write queued before
 *       it.
 * </ul>
 *
 * <p>Both keep the requests of one connection in order, on one thread, which is what makes HTTP
 * pipelining safe: responses leave in the order the requests arrived.
 *
 * <p>What a client may hold is bounded by {@link ServerLimits}: the connections served at once
 * ({@link ConnectionLimit}, below the descriptor limit), and how long a connection may stay idle
 * or take to send a request ({@link HttpConnection}). A failed accept pauses accepting ({@link
 * AcceptBackoff}) instead of ending the event loop that owns the listening socket, and the
 * health check answers 503 meanwhile ({@link ServerHealth}). Nothing the server adds to an
 * event loop lets an exception out of it.
 */
public final class StatorServer implements AutoCloseable {
  /** DynamoDB's maximum request size: 16 MB. */
  static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;
  /**
   * The workers' threads, when the calls run on workers: they spend their time waiting on a
   * remote storage, not computing, so they are counted by the requests that may wait at once,
   * not by the cores. Each connection is pinned to one worker, and a worker's connections wait
   * in turn: twice the cores (4 on two), as it was, let 16 clients keep only 4 Cassandra calls
   * in flight, and Stator's GetItem did 972 per second beside 3,258 SELECTs from 16 driver
   * threads on the same node (docs/performance.md, "On Cassandra"). 64 threads that mostly
   * wait cost their stacks and nothing else; past 64 connections, some share a worker again.
   */
  static final int WORKERS = 64;

  // How long, on close, the loops and the workers wait for the other to hand them no more tasks
  private static final long QUIET_MILLIS = 100;

  private final Channel channel;
  private final EventLoopGroup loops;
  private final EventExecutorGroup workers;
  private final WorkerTeardown teardown;
  private final Database database;
  private final int port;
  private final ServerHealth health;
  private boolean closed;

  private final DynamoDbHandler handler;
  // The connections open, closed first on close, before their loops and workers stop
  private final ChannelGroup open;

  private StatorServer(
      Channel channel,
      ChannelGroup open,
      EventLoopGroup loops,
      EventExecutorGroup workers,
      WorkerTeardown teardown,
      Database database,
      ServerHealth health,
      DynamoDbHandler handler) {
    this.teardown = teardown;
    this.health = health;
    this.handler = handler;
    this.channel = channel;
    this.open = open;
    this.loops = loops;
    this.workers = workers;
    this.database = database;
    this.port = ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Starts a server for region us-east-1 (the region only shows in the health answer). */
  public static StatorServer start(String host, int port, Database database) {
    return start(host, port, database, "us-east-1");
  }

  /** Starts a server; returns once it accepts connections on {@code host:port}. */
  public static StatorServer start(String host, int port, Database database, String region) {
    return start(host, port, database, region, false);
  }

  /**
   * Starts a server; with {@code callsOnEventLoops} the {@link Database} calls run on {@link
   * #defaultEventLoops()} event loops themselves, which is right only when no call can block for
   * long (see the class comment).
   */
  public static StatorServer start(
      String host, int port, Database database, String region, boolean callsOnEventLoops) {
    int cores = Runtime.getRuntime().availableProcessors();
    return start(
        host,
        port,
        database,
        region,
        callsOnEventLoops,
        callsOnEventLoops ? defaultEventLoops() : Math.max(1, cores / 2));
  }

  /**
   * The event loops that serve calls when none are asked for: one per core. Fewer leave cores to
   * clients on the same machine, which only the lightest calls gain from: on 2 cores under the
   * load benchmark (wrk on the same machine), one loop served GetItem 20% faster with a p99 of
   * 1.6 ms instead of 3.6 ms, but Query, UpdateItem, BatchWriteItem and GSI Query 28-54% slower,
   * capped at one core (docs/performance.md, "Tail latency").
   */
  public static int defaultEventLoops() {
    return Runtime.getRuntime().availableProcessors();
  }

  /**
   * Starts a server with {@code eventLoops} event loops; with {@code callsOnEventLoops} the
   * {@link Database} calls run on them (see the class comment).
   */
  public static StatorServer start(
      String host,
      int port,
      Database database,
      String region,
      boolean callsOnEventLoops,
      int eventLoops) {
    return start(
        host, port, database, region, callsOnEventLoops, eventLoops, ServerLimits.defaults());
  }

  /**
   * Starts a server with {@code eventLoops} event loops and the connection limit and timeouts of
   * {@code limits} (see the class comment).
   */
  public static StatorServer start(
      String host,
      int port,
      Database database,
      String region,
      boolean callsOnEventLoops,
      int eventLoops,
      ServerLimits limits) {
    return start(
        host, port, database, region, callsOnEventLoops, eventLoops, limits, null, null);
  }

  /**
   * As above, verifying every request's SigV4 signature with {@code signatures} (null accepts
   * any well-formed signature, for local use) and serving HTTPS with {@code tls} (null serves
   * plain HTTP): every connection's first handler decrypts, so what follows sees the same
   * requests either way.
   */
  public static StatorServer start(
      String host,
      int port,
      Database database,
      String region,
      boolean callsOnEventLoops,
      int eventLoops,
      ServerLimits limits,
      SigV4 signatures,
      SslContext tls) {
    if (eventLoops < 1) {
      throw new IllegalArgumentException("eventLoops must be at least 1, not " + eventLoops);
    }
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(eventLoops, io);
    EventExecutorGroup workers =
        callsOnEventLoops ? null : new DefaultEventExecutorGroup(WORKERS);
    GroupCommit groupCommit = database instanceof GroupCommit g ? g : new GroupCommit() {};
    AcceptBackoff accepts = new AcceptBackoff();
    ConnectionLimit connections = new ConnectionLimit(limits.maxConnections());
    HttpConnection.Closes closes = new HttpConnection.Closes();
    ServerHealth health = new ServerHealth(database, groupCommit, accepts, connections, closes);
    RequestMetrics metrics = new RequestMetrics(database, connections);
    DynamoDbHandler handler =
        new DynamoDbHandler(database, groupCommit, region, health, metrics, signatures);
    DurableFlush durableFlush = new DurableFlush(groupCommit);
    ChannelGroup open = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    WorkerTeardown teardown = new WorkerTeardown();
    // Loaded while files can still be opened: java.util.logging's formatter reads the time zone
    // database the first time it logs, and with no descriptor left that read threw an Error on
    // the event loop that logged (see ServerLog). Netty logs little, but nothing of it may die so.
    TimeZone.getDefault();
    // Likewise the classes a request may need first when descriptors are short (a class loads
    // from the jar, which takes one): the guard of Stator's own endpoints, and the metrics'
    OwnEndpoints.addressedDirectly("127.0.0.1");
    metrics.loadClasses();
    try {
      ServerBootstrap bootstrap =
          new ServerBootstrap()
              .group(loops)
              .channel(channelType)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .handler(accepts)
              .childOption(ChannelOption.TCP_NODELAY, true)
              // The end of a client's input is an event, so that what it sent before a
              // shutdownOutput is still answered (see HttpConnection).
              .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      try {
                        if (!connections.admit(ch)) {
                          return;
                        }
                        open.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        if (tls != null) {
                          // Nearest the socket: the durable flush below it waits, then this
                          // encrypts what it lets through
                          p.addLast(tls.newHandler(ch.alloc()));
                        }
                        p.addLast(durableFlush);
                        p.addLast(new HttpServerCodec());
                        p.addLast(new HttpConnection(limits, closes));
                        // With workers, the aggregator runs on the connection's worker too: it
                        // answers "100 Continue" to a request's head, which must not overtake
                        // the answer of a request before it still being served there.
                        if (workers != null) {
                          teardown.expect();
                          p.addLast(workers, teardown);
                        }
                        p.addLast(workers, new RequestSizeLimit(MAX_REQUEST_BYTES), handler);
                      } catch (Throwable t) {
                        // Netty would log it, on the event loop (see ServerLog): drop the
                        // connection instead (its close gives its place back).
                        ch.close();
                      }
                    }
                  });
      Channel channel = bootstrap.bind(host, port).sync().channel();
      return new StatorServer(
          channel, open, loops, workers, teardown, database, health, handler);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shutdown(loops, workers, teardown);
      throw new IllegalStateException("interrupted while binding " + host + ":" + port, e);
    } catch (RuntimeException e) {
      shutdown(loops, workers, teardown);
      throw e;
    }
  }

  public int port() {
    return port;
  }

  /**
   * Whether {@code GET /stator/console} serves the console (it does from the start); {@code
   * ./stator serve --no-console} turns it off.
   */
  public void serveConsole(boolean served) {
    handler.serveConsole(served);
  }

  /** Stops accepting, finishes the requests in flight, then closes the database. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    health.stopping();
    try {
      channel.close().syncUninterruptibly();
      open.close().syncUninterruptibly();
      shutdown(loops, workers, teardown);
    } finally {
      database.close();
    }
  }

  private static void shutdown(
      EventLoopGroup loops, EventExecutorGroup workers, WorkerTeardown teardown) {
    if (workers == null) {
      loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
      return;
    }
    // The connections are closed by now, but their teardown still passes between each one's
    // event loop and its worker (see WorkerTeardown): once no connection has a handler left on
    // a worker, the workers stop, and then the loops, which finish the steps handed to them.
    if (teardown.await(5, TimeUnit.SECONDS)) {
      workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
      loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
      return;
    }
    // A teardown that did not finish: both groups stay up until neither has handed the other
    // a task for a quiet period
    Future<?> loopsStopped = loops.shutdownGracefully(QUIET_MILLIS, 5_000, TimeUnit.MILLISECONDS);
    Future<?> workersStopped =
        workers.shutdownGracefully(QUIET_MILLIS, 5_000, TimeUnit.MILLISECONDS);
    loopsStopped.syncUninterruptibly();
    workersStopped.syncUninterruptibly();
  }

}
