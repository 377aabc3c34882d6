package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OnDemandThroughput ceilings in the catalog encoding: an optional field of the table and of
 * each index, so records written before it existed still read, as without ceilings.
 */
class CatalogMaxThroughputTest {
  private static final KeyAttribute G = new KeyAttribute("g", "S");

  private static TableDefinition table(MaxThroughput table, MaxThroughput index) {
    IndexDefinition byG = new IndexDefinition("byG", true, List.of(G), List.of(),
        IndexDefinition.ALL, List.of(), 0, 0, IndexDefinition.ACTIVE, "index.x.byG.1", index);
    return CatalogSettingsTest.table(TableSettings.DEFAULT)
        .withIndexes(List.of(byG), List.of(CatalogSettingsTest.ID, G))
        .withMaxThroughput(table);
  }

  @Test
  void aRecordWithoutTheFieldReadsAsNoCeiling() {
    byte[] old = Catalog.encode(table(MaxThroughput.NONE, MaxThroughput.NONE));
    assertThat(new String(old, StandardCharsets.ISO_8859_1)).doesNotContain("onDemand");
    TableDefinition read = Catalog.decode(old);
    assertThat(read.maxThroughput()).isEqualTo(MaxThroughput.NONE);
    assertThat(read.index("byG").maxThroughput()).isEqualTo(MaxThroughput.NONE);
  }

  @Test
  void ceilingsRoundTripEachMemberOnItsOwn() {
    for (MaxThroughput m : List.of(
        new MaxThroughput(100, 50),
        new MaxThroughput(100, MaxThroughput.UNLIMITED),
        new MaxThroughput(MaxThroughput.UNLIMITED, 1))) {
      TableDefinition t = table(m, new MaxThroughput(m.writeRequestUnits(), 7));
      TableDefinition read = Catalog.decode(Catalog.encode(t));
      assertThat(read).isEqualTo(t);
      assertThat(read.maxThroughput()).isEqualTo(m);
      assertThat(read.index("byG").maxThroughput().writeRequestUnits()).isEqualTo(7);
    }
  }

  @Test
  void otherChangesKeepTheCeilings() {
    MaxThroughput m = new MaxThroughput(10, 20);
    TableDefinition t = table(m, MaxThroughput.NONE);
    assertThat(t.withStatus("UPDATING").maxThroughput()).isEqualTo(m);
    assertThat(t.withSettings(TableSettings.DEFAULT.withDeletionProtection(true)).maxThroughput())
        .isEqualTo(m);
    assertThat(t.withMaxThroughput(m)).isSameAs(t);
  }
}
