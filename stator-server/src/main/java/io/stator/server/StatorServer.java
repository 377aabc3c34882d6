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
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.stator.api.Database;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The DynamoDB HTTP front door over a {@link Database}.
 *
 * <p>{@code StatorServer.start(host, port, database)} binds (port 0 picks a free port) and
 * returns once the server accepts connections; {@link #port()} tells the bound port; {@link
 * #close()} stops it and closes the database.
 *
 * <p>Threads, two ways, chosen by whoever starts the server (the command line chooses by storage):
 *
 * <ul>
 *   <li><b>Calls on the event loops</b> (the in-memory storage): one event loop per core decodes
 *       a request, calls the {@link Database} and writes the answer, on the connection's own
 *       thread. Nothing waits on another thread, so a request costs no hand-off: measured under
 *       the load benchmark (GetItem, 16 connections, 2 cores), 16-21 µs of server CPU per request
 *       against 31-41 µs with the worker hop, and a quarter more requests per second. This is
 *       right only because no call blocks: the in-memory storage never waits for I/O, and its
 *       lock (commits exclusive, range reads shared) is held only while another call does its
 *       own CPU work, at most a Scan page of 1 MB, milliseconds; the other connections of a
 *       loop wait for such a call as they would wait for a free core.
 *   <li><b>Calls on workers</b> (RocksDB, the default): the event loops (half the cores) only
 *       move bytes, and the {@link Database} call runs on a {@link DefaultEventExecutorGroup},
 *       which pins each connection to one of its threads. A RocksDB call can block for long: a
 *       read that misses the block cache waits for the disk, and a write can stall behind a
 *       memtable flush or compaction (RocksDB's write stalls, up to seconds), or wait for its
 *       group's WAL sync. On an event loop that would stall every connection the loop serves,
 *       not just the one asking; on a worker it stalls only the connections pinned to it. Reads
 *       alone cannot move to the loops either: pipelined requests of one connection must be
 *       answered in order, and a read answered inline would overtake a write queued before it.
 * </ul>
 *
 * <p>Both keep the requests of one connection in order, on one thread, which is what makes HTTP
 * pipelining safe: responses leave in the order the requests arrived.
 */
public final class StatorServer implements AutoCloseable {
  /** DynamoDB's maximum request size: 16 MB. */
  static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

  private final Channel channel;
  private final EventLoopGroup loops;
  private final EventExecutorGroup workers;
  private final Database database;
  private final int port;
  private boolean closed;

  private StatorServer(
      Channel channel, EventLoopGroup loops, EventExecutorGroup workers, Database database) {
    this.channel = channel;
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
   * Starts a server; with {@code callsOnEventLoops} the {@link Database} calls run on the event
   * loops themselves (one loop per core), which is right only when no call can block for long
   * (see the class comment).
   */
  public static StatorServer start(
      String host, int port, Database database, String region, boolean callsOnEventLoops) {
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    int cores = Runtime.getRuntime().availableProcessors();
    EventLoopGroup loops =
        new MultiThreadIoEventLoopGroup(callsOnEventLoops ? cores : Math.max(1, cores / 2), io);
    EventExecutorGroup workers =
        callsOnEventLoops ? null : new DefaultEventExecutorGroup(Math.max(4, cores * 2));
    DynamoDbHandler handler = new DynamoDbHandler(database, region);
    try {
      ServerBootstrap bootstrap =
          new ServerBootstrap()
              .group(loops)
              .channel(channelType)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ChannelPipeline p = ch.pipeline();
                      p.addLast(new HttpServerCodec());
                      p.addLast(new RequestSizeLimit(MAX_REQUEST_BYTES));
                      p.addLast(workers, handler);
                    }
                  });
      Channel channel = bootstrap.bind(host, port).sync().channel();
      return new StatorServer(channel, loops, workers, database);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shutdown(loops, workers);
      throw new IllegalStateException("interrupted while binding " + host + ":" + port, e);
    } catch (RuntimeException e) {
      shutdown(loops, workers);
      throw e;
    }
  }

  public int port() {
    return port;
  }

  /** Stops accepting, finishes the requests in flight, then closes the database. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      channel.close().syncUninterruptibly();
      shutdown(loops, workers);
    } finally {
      database.close();
    }
  }

  private static void shutdown(EventLoopGroup loops, EventExecutorGroup workers) {
    loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    if (workers != null) {
      workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
