package io.stator.server;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.TimeUnit;

/**
 * When calls run on workers, which connections still have handlers on a worker. A closed
 * connection's pipeline is torn down handler by handler, each on its own executor, passing from
 * its event loop to its worker and back; this handler sits nearest the socket of the
 * connection's worker-side handlers, so it is the last of them removed, and after that the
 * teardown hands nothing more to a worker. Closing the server waits for every connection to
 * get there before it stops the workers, then the loops: a group stopped while a teardown was
 * still to hand it a step refused the step, and Netty printed "event executor terminated".
 */
@ChannelHandler.Sharable
final class WorkerTeardown extends ChannelHandlerAdapter {
  private int pending; // guarded by this

  /** A connection whose pipeline gets this handler. */
  synchronized void expect() {
    pending++;
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    synchronized (this) {
      pending--;
      notifyAll();
    }
  }

  /** Waits until every connection expected is torn down, or the time is up: whether it was. */
  synchronized boolean await(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    try {
      while (pending > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
