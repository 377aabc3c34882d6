import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * bench/flood.sh's client (run as a source file: java bench/Flood.java HOST PORT N HOLD_SECONDS):
 * opens N connections to a running server as fast as it can, sends GET / on each, waits up to
 * HOLD_SECONDS for their answers while holding all of them open, then closes them all and
 * measures how long the server takes to serve a new connection again.
 *
 * <p>Prints one line per figure, "name value", for the script to report: connections opened,
 * answers by status (a 503 as refused over the connection limit or as a failing health check), connections closed or reset unanswered, left unanswered (waiting in the
 * server's backlog), and the seconds to the first 200 after the flood (or "never").
 */
public class Flood {
  private static final byte[] GET =
      "GET / HTTP/1.1\r\nHost: flood\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  public static void main(String[] args) throws Exception {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    int wanted = Integer.parseInt(args[2]);
    long holdNanos = (long) (Double.parseDouble(args[3]) * 1e9);
    InetSocketAddress address = new InetSocketAddress(host, port);

    Selector selector = Selector.open();
    List<SocketChannel> channels = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    String clientLimit = null;
    long start = System.nanoTime();
    for (int i = 0; i < wanted; i++) {
      SocketChannel channel;
      try {
        channel = SocketChannel.open();
      } catch (IOException e) { // this side's descriptors
        clientLimit = e.getMessage();
        break;
      }
      channel.configureBlocking(false);
      try {
        if (channel.connect(address)) {
          channel.register(selector, SelectionKey.OP_WRITE, new StringBuilder());
        } else {
          channel.register(selector, SelectionKey.OP_CONNECT, new StringBuilder());
        }
        channels.add(channel);
      } catch (IOException e) {
        count(outcomes, "connect-failed");
        channel.close();
      }
      if ((i & 255) == 255) {
        pump(selector, outcomes, 0);
      }
    }
    double openSeconds = (System.nanoTime() - start) / 1e9;
    long holdUntil = System.nanoTime() + holdNanos;
    while (System.nanoTime() < holdUntil && !selector.keys().isEmpty()) {
      pump(selector, outcomes, Math.max(1, (holdUntil - System.nanoTime()) / 1_000_000));
    }
    int unanswered = 0;
    for (SelectionKey key : selector.keys()) {
      if (key.isValid() && key.interestOps() != 0) {
        unanswered++;
      }
    }
    System.out.printf("attempted %d%n", channels.size());
    if (clientLimit != null) {
      System.out.printf("client-out-of-descriptors %s%n", clientLimit.replace(' ', '_'));
    }
    System.out.printf("open-seconds %.2f%n", openSeconds);
    outcomes.forEach((k, v) -> System.out.printf("%s %d%n", k, v));
    System.out.printf("unanswered-after-hold %d%n", unanswered);

    for (SocketChannel channel : channels) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    selector.close();

    long closed = System.nanoTime();
    String recovered = "never";
    while (System.nanoTime() - closed < 60_000_000_000L) {
      if (served(address)) {
        recovered = String.format("%.2f", (System.nanoTime() - closed) / 1e9);
        break;
      }
      Thread.sleep(100);
    }
    System.out.printf("seconds-to-serve-again %s%n", recovered);
    System.out.printf("connections-endpoint %s%n", figures(host, port));
  }

  /** Connects, writes, and reads status lines for up to {@code millis} (0: only what is ready). */
  private static void pump(Selector selector, Map<String, Integer> outcomes, long millis)
      throws IOException {
    if (millis == 0) {
      selector.selectNow();
    } else {
      selector.select(millis);
    }
    ByteBuffer buffer = ByteBuffer.allocate(256);
    for (SelectionKey key : selector.selectedKeys()) {
      SocketChannel channel = (SocketChannel) key.channel();
      StringBuilder line = (StringBuilder) key.attachment();
      boolean connecting = key.isConnectable();
      try {
        if (connecting) {
          channel.finishConnect();
          key.interestOps(SelectionKey.OP_WRITE);
        } else if (key.isWritable()) {
          channel.write(ByteBuffer.wrap(GET));
          key.interestOps(SelectionKey.OP_READ);
        } else if (key.isReadable()) {
          buffer.clear();
          int n = channel.read(buffer);
          if (n < 0) {
            count(outcomes, "closed-unanswered");
            key.interestOps(0);
            continue;
          }
          for (int i = 0; i < n; i++) {
            line.append((char) buffer.get(i));
          }
          int end = line.indexOf("\r\n");
          if (end >= 0) {
            String[] status = line.substring(0, end).split(" ");
            String code = status.length > 1 ? status[1] : "garbled";
            if (code.equals("503")) {
              // Refused over the connection limit, or a health check that fails.
              if (line.indexOf("ServiceUnavailable") >= 0) {
                code = "503-refused";
              } else if (line.indexOf("unhealthy") >= 0) {
                code = "503-unhealthy";
              } else {
                continue; // the body is still to come
              }
            }
            count(outcomes, "status-" + code);
            key.interestOps(0); // answered; held open until the end
          }
        }
      } catch (IOException e) {
        count(outcomes, connecting ? "connect-failed" : "reset");
        key.interestOps(0);
      }
    }
    selector.selectedKeys().clear();
  }

  private static void count(Map<String, Integer> outcomes, String outcome) {
    outcomes.merge(outcome, 1, Integer::sum);
  }

  private static boolean served(InetSocketAddress address) {
    try (Socket socket = new Socket()) {
      socket.connect(address, 2_000);
      socket.setSoTimeout(2_000);
      socket.getOutputStream().write(GET);
      InputStream in = socket.getInputStream();
      byte[] head = in.readNBytes(12);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
    } catch (IOException e) {
      return false;
    }
  }

  /** The server's GET /stator/connections, or "none" (an older server, or none at all). */
  private static String figures(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2_000);
      socket.setSoTimeout(2_000);
      socket.getOutputStream().write(("GET /stator/connections HTTP/1.1\r\nHost: flood\r\n"
          + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int body = answer.indexOf("\r\n\r\n");
      return answer.startsWith("HTTP/1.1 200") && body >= 0 ? answer.substring(body + 4) : "none";
    } catch (IOException e) {
      return "none";
    }
  }
}
