/**
 * Stator for tests: {@link io.stator.junit.StatorTest} (a JUnit 5 extension) and {@link
 * io.stator.junit.EmbeddedStator} (a server any test framework can start), packaged with the
 * server's Netty and Jackson relocated so that they clash with no version in a user's build.
 */
package io.stator.junit;
