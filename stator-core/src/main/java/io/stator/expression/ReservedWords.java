package io.stator.expression;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * DynamoDB's reserved words: a bare attribute name in an expression must not be one of them
 * (compared case-insensitively); the user writes a {@code #name} placeholder instead. The list is
 * DynamoDB's published one, kept as data in {@code reserved-words.txt}.
 */
final class ReservedWords {
  private static final Set<String> WORDS = load();

  private ReservedWords() {}

  static boolean contains(String name) {
    return WORDS.contains(name.toUpperCase(Locale.ROOT));
  }

  private static Set<String> load() {
    Set<String> words = new HashSet<>(1024);
    try (InputStream in = ReservedWords.class.getResourceAsStream("reserved-words.txt")) {
      if (in == null) {
        throw new IllegalStateException("reserved-words.txt is missing from the classpath");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        String word = line.strip();
        if (!word.isEmpty()) {
          words.add(word.toUpperCase(Locale.ROOT));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(words);
  }
}
