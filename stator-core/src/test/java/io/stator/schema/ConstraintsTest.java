package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.constraints.Chars;
import org.junit.jupiter.api.Test;

class ConstraintsTest {
  /** The hand-written name check accepts exactly what DynamoDB's pattern accepts. */
  @Property(tries = 2000)
  void nameCheckIsThePattern(
      @ForAll @StringLength(min = 3, max = 12) @Chars({'a', 'Z', '0', '_', '.', '-', ' ', '#',
          'é', '/', '\u0000'}) String name) {
    boolean valid = name.matches(Constraints.NAME_PATTERN);
    Constraints c = new Constraints().name("tableName", name);
    if (valid) {
      assertThatCode(c::check).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(c::check)
          .isInstanceOf(DynamoDbException.class)
          .hasMessageContaining("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    }
  }

  @Test
  void enumValuesAreCheckedExactly() {
    assertThatCode(new Constraints().oneOf("v", "TOTAL", "INDEXES", "TOTAL", "NONE")::check)
        .doesNotThrowAnyException();
    assertThatThrownBy(new Constraints().oneOf("v", "total", "INDEXES", "TOTAL", "NONE")::check)
        .hasMessage("1 validation error detected: Value 'total' at 'v' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
    assertThat(new Constraints().name("t", "").oneOf("v", null, "A")).isNotNull();
  }
}
