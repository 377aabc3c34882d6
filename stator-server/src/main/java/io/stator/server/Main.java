package io.stator.server;

/** The {@code stator} command line. To be written. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("stator: not yet");
  }
}
