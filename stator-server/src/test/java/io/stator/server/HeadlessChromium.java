package io.stator.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium, driven through the DevTools protocol over the JDK's own
 * WebSocket client: open a page, run JavaScript in it (to type and click as a user does) and
 * read what it shows. No driver or browser is downloaded.
 */
final class HeadlessChromium implements AutoCloseable {
  private static final JsonFactory JSON = new JsonFactory();
  private static final Pattern LISTENING =
      Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<String>> answers = new ConcurrentHashMap<>();

  /** The path of a chromium on the PATH, or null. */
  static String installed() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        if (Files.isExecutable(Path.of(dir, name))) {
          return Path.of(dir, name).toString();
        }
      }
    }
    return null;
  }

  /** The arguments every run takes: headless, and nothing reaching for the network. */
  static List<String> headless(String chromium, Path profile) {
    return List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile);
  }

  HeadlessChromium(String chromium, Path profile) throws Exception {
    List<String> command = new java.util.ArrayList<>(headless(chromium, profile));
    command.add("--remote-debugging-port=0");
    command.add("about:blank");
    process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    int port = -1;
    BufferedReader err = new BufferedReader(
        new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    for (String line = err.readLine(); line != null; line = err.readLine()) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        port = Integer.parseInt(m.group(1));
        break;
      }
    }
    if (port < 0) {
      throw new IOException("chromium did not open its DevTools port");
    }
    Thread drain = new Thread(() -> {
      try {
        while (err.readLine() != null) {
          // keep chromium's stderr from filling up
        }
      } catch (IOException ignored) {
        // chromium is gone
      }
    }, "chromium-stderr");
    drain.setDaemon(true);
    drain.start();
    HttpClient http = HttpClient.newHttpClient();
    // The DevTools port opens before the first page is listed, on a busy machine long enough
    // before that a single look can find no page: look again until it is there.
    Pattern pageTarget = Pattern.compile("\"type\"\\s*:\\s*\"page\"[^}]*?"
        + "\"webSocketDebuggerUrl\"\\s*:\\s*\"([^\"]+)\"", Pattern.DOTALL);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String list = targets(http, port);
    Matcher page = pageTarget.matcher(list);
    while (!page.find()) {
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("no page in chromium's targets: " + list);
      }
      TimeUnit.MILLISECONDS.sleep(50);
      list = targets(http, port);
      page = pageTarget.matcher(list);
    }
    socket = http.newWebSocketBuilder().buildAsync(URI.create(page.group(1)), new Listener())
        .get(20, TimeUnit.SECONDS);
  }

  /** What chromium's DevTools on {@code port} lists as its targets (JSON). */
  private static String targets(HttpClient http, int port) throws Exception {
    return http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** Opens {@code url} in the page. */
  void open(String url) throws Exception {
    send("Page.navigate", Map.of("url", url));
  }

  /**
   * The value of a JavaScript expression in the page (a promise awaited), as text: give an
   * expression whose value is a string, e.g. {@code JSON.stringify(...)}.
   */
  String evaluate(String expression) throws Exception {
    String answer = send("Runtime.evaluate",
        Map.of("expression", expression, "awaitPromise", true, "returnByValue", true));
    try (JsonParser p = JSON.createParser(answer)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME && p.currentName().equals("exceptionDetails")) {
          throw new IllegalStateException("the page threw: " + answer);
        }
        if (t == JsonToken.FIELD_NAME && p.currentName().equals("value")) {
          p.nextToken();
          return p.getText();
        }
      }
    }
    return null;
  }

  /** Waits until a JavaScript condition holds in the page, for at most {@code timeout}. */
  void await(String condition, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!"true".equals(evaluate("String(Boolean(" + condition + "))"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the page never showed " + condition + "; it shows: "
            + evaluate("document.body.innerText"));
      }
      TimeUnit.MILLISECONDS.sleep(50); // the next look, not a wait for something to happen
    }
  }

  private String send(String method, Map<String, Object> params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<String> answer = new CompletableFuture<>();
    answers.put(id, answer);
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.writeStartObject();
      g.writeNumberField("id", id);
      g.writeStringField("method", method);
      g.writeObjectFieldStart("params");
      for (Map.Entry<String, Object> e : params.entrySet()) {
        if (e.getValue() instanceof Boolean b) {
          g.writeBooleanField(e.getKey(), b);
        } else {
          g.writeStringField(e.getKey(), String.valueOf(e.getValue()));
        }
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    socket.sendText(text.toString(), true).get(20, TimeUnit.SECONDS);
    return answer.get(60, TimeUnit.SECONDS);
  }

  /** Hands each answer to the call that waits for its id; events are not needed. */
  private final class Listener implements WebSocket.Listener {
    private final StringBuilder message = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      message.append(data);
      if (last) {
        String text = message.toString();
        message.setLength(0);
        Matcher id = Pattern.compile("^\\{\"id\":(\\d+)").matcher(text);
        if (id.find()) {
          CompletableFuture<String> answer = answers.remove(Integer.parseInt(id.group(1)));
          if (answer != null) {
            answer.complete(text);
          }
        }
      }
      webSocket.request(1);
      return null;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // chromium may already be gone
    } finally {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
