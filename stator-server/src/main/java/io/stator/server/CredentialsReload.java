package io.stator.server;

import io.stator.server.auth.Credential;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The --credentials file read again when it changes (looked at once a second) or on {@code kill
 * -HUP}: its keys replace the old ones (the environment's key kept), so keys are added or
 * revoked without a restart. A file that no longer reads keeps the old keys and says why. The
 * file is watched as well as the signal because a process started with SIGHUP ignored (under
 * {@code nohup}) never receives it.
 */
final class CredentialsReload {
  private final SigV4 signatures;
  private final Path file;
  private final List<Credential> fromEnvironment;
  private final PrintWriter err;
  private byte[] lastRead;

  private CredentialsReload(SigV4 signatures, Path file, List<Credential> fromEnvironment,
      PrintWriter err) {
    this.signatures = signatures;
    this.file = file;
    this.fromEnvironment = List.copyOf(fromEnvironment);
    this.err = err;
  }

  static void start(SigV4 signatures, Path file, List<Credential> fromEnvironment,
      PrintWriter err) {
    CredentialsReload reload = new CredentialsReload(signatures, file, fromEnvironment, err);
    reload.lastRead = reload.bytes();
    SignalHandler previous = Signal.handle(new Signal("HUP"), signal -> reload.reload());
    if (previous == SignalHandler.SIG_IGN) {
      err.println("stator: SIGHUP is ignored in this process; " + file
          + " is reread when it changes");
      err.flush();
    }
    ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "stator-credentials-watch");
      thread.setDaemon(true);
      return thread;
    });
    watch.scheduleWithFixedDelay(reload::reloadIfChanged, 1, 1, TimeUnit.SECONDS);
  }

  private synchronized void reloadIfChanged() {
    byte[] now = bytes();
    if (!Arrays.equals(now, lastRead)) {
      reload();
    }
  }

  private synchronized void reload() {
    lastRead = bytes();
    try {
      List<Credential> keys = new ArrayList<>(Credentials.read(file).all());
      keys.addAll(fromEnvironment);
      Credentials credentials = Credentials.of(keys);
      signatures.use(credentials);
      err.println("stator: reloaded " + credentials.size() + " keys from " + file);
    } catch (IOException | IllegalArgumentException e) {
      err.println("stator: kept the keys in use: cannot read " + file + ": " + e.getMessage());
    }
    err.flush();
  }

  /** The file's bytes, or none while it cannot be read (a change all the same). */
  private byte[] bytes() {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
