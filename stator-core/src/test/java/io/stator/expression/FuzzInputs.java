package io.stator.expression;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Input generators shared by the expression fuzz tests; each test brings its own grammar. */
final class FuzzInputs {
  private FuzzInputs() {}

  /** Up to 25 grammar fragments joined by spaces, in any order. */
  static Arbitrary<String> tokenSoup(List<String> fragments) {
    return Arbitraries.of(fragments).list().ofMaxSize(25).map(l -> String.join(" ", l));
  }

  /** A valid seed expression cut short, cut at the front, or with a fragment spliced in. */
  static Arbitrary<String> mutated(List<String> seeds, List<String> fragments) {
    return Combinators.combine(
            Arbitraries.of(seeds),
            Arbitraries.integers().between(0, 1000),
            Arbitraries.integers().between(0, 5),
            Arbitraries.of(fragments))
        .as(
            (seed, at, kind, fragment) -> {
              int i = at % (seed.length() + 1);
              int j = Math.min(seed.length(), i + kind);
              return switch (kind) {
                case 0 -> seed.substring(0, i);
                case 1 -> seed.substring(i);
                case 2 -> seed.substring(0, i) + fragment + seed.substring(i);
                default -> seed.substring(0, i) + fragment + seed.substring(j);
              };
            });
  }
}
