package io.stator.server.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WildcardTest {
  @Test
  void starMatchesAnyRunAndQuestionMarkOneCharacter() {
    assertThat(Wildcard.matches("*", "", false)).isTrue();
    assertThat(Wildcard.matches("dynamodb:Get*", "dynamodb:GetItem", true)).isTrue();
    assertThat(Wildcard.matches("dynamodb:Get*", "dynamodb:getitem", true)).isTrue();
    assertThat(Wildcard.matches("dynamodb:Get*", "dynamodb:BatchGetItem", true)).isFalse();
    assertThat(Wildcard.matches("table/Or?ers", "table/Orders", false)).isTrue();
    assertThat(Wildcard.matches("table/Or?ers", "table/Oders", false)).isFalse();
    assertThat(Wildcard.matches("a*b*c", "a-b-b-c", false)).isTrue();
    assertThat(Wildcard.matches("a*b*c", "a-b-b-c-", false)).isFalse();
    assertThat(Wildcard.matches("*index*", "table/T/index/I", false)).isTrue();
  }

  @Test
  void arnsCompareWithCaseAndWithoutAWildcardExactly() {
    assertThat(Wildcard.matches("table/Orders", "table/orders", false)).isFalse();
    assertThat(Wildcard.matches("table/Orders", "table/Orders/index/ByDate", false)).isFalse();
    assertThat(Wildcard.matches("table/Orders*", "table/Orders/index/ByDate", false)).isTrue();
  }
}
