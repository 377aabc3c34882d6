package io.stator.server;

import io.stator.server.auth.Credential;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;

/**
 * {@code kill -HUP} re-reads the --credentials file: its keys replace the old ones (with the
 * environment's key kept), so keys are added or revoked without a restart. A file that no longer
 * reads keeps the old keys and says why.
 */
final class CredentialsReload {
  private CredentialsReload() {}

  static void onHangup(SigV4 signatures, Path file, List<Credential> fromEnvironment,
      PrintWriter err) {
    List<Credential> kept = List.copyOf(fromEnvironment);
    Signal.handle(new Signal("HUP"), signal -> {
      try {
        List<Credential> keys = new ArrayList<>(Credentials.read(file).all());
        keys.addAll(kept);
        Credentials credentials = Credentials.of(keys);
        signatures.use(credentials);
        err.println("stator: reloaded " + credentials.size() + " keys from " + file);
      } catch (IOException | IllegalArgumentException e) {
        err.println("stator: kept the keys in use: cannot read " + file + ": " + e.getMessage());
      }
      err.flush();
    });
  }
}
