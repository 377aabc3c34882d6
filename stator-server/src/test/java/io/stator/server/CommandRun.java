package io.stator.server;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Runs the {@code stator} command line in this JVM and keeps what the last run printed; public
 * for the end-to-end tests of the commands that talk to a server.
 */
public final class CommandRun {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Runs the command line; {@link #out} and {@link #err} then hold this run's output alone. */
  public int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  public String out() {
    return out.toString();
  }

  public String err() {
    return err.toString();
  }
}
