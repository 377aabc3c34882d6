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
 * <p>Threads: Netty's event loops only move bytes (HTTP decoding, the body limit, writes). The
 * {@link Database} call runs on a separate {@link DefaultEventExecutorGroup}, which pins each
 * connection to one of its threads. That keeps the event loops free when storage blocks (a
 * RocksDB read that misses the block cache, a WAL write) and keeps the requests of one
 * connection in order, which is what makes HTTP pipelining safe: responses leave in the order
 * the requests arrived. The hop costs a few microseconds per request, small beside JSON parsing.
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
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    int cores = Runtime.getRuntime().availableProcessors();
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(Math.max(1, cores / 2), io);
    EventExecutorGroup workers = new DefaultEventExecutorGroup(Math.max(4, cores * 2));
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
    workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
