package io.stator.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link Storage} must have. An engine module subclasses this and gets the
 * whole suite: spaces, point reads, partition range reads in both directions with every bound
 * combination, ordered scans with paging, atomic commits, versions, concurrency and (for durable
 * engines) reopening.
 *
 * <p>Many tests compare the storage with a reference model: a {@link TreeMap} ordered by {@link
 * StorageKey}, the order the SPI promises (partition, then sort, unsigned bytes). Partitions that
 * are byte-prefixes of one another and sort keys holding 0x00 and 0xFF are used throughout,
 * because those are the cases a composite-key encoding gets wrong.
 */
public abstract class StorageContract {

  /** Opens (or reopens) the storage kept in {@code dir}. */
  protected abstract Storage open(Path dir);

  /** Whether the storage keeps its data across {@link Storage#close()} and {@link #open}. */
  protected boolean durable() {
    return true;
  }

  /**
   * How many of {@code attempts} each thread of a test racing on one key makes: all of them on a
   * local storage. A networked storage may run fewer, which check the same invariant: each
   * contended round costs every thread a round trip and most of them a conflict.
   */
  protected int contended(int attempts) {
    return attempts;
  }

  /** Whether two instances opened on one store share it; see {@link Sharing}. */
  protected abstract Sharing sharing();

  /** What {@link #open} does when the store in a directory is already open. */
  protected enum Sharing {
    /**
     * Every instance is a store of its own (memory): no two instances have a store to share, so
     * there is nothing to prove about them.
     */
    NONE,
    /**
     * A second instance cannot open a store while another has it open (RocksDB locks its
     * directory, against this process and others), so one instance issues every version of a
     * store; the contract proves the refusal and that versions stay unique across a reopen.
     */
    EXCLUSIVE,
    /**
     * Many instances, in one process or several, open one store at once (Cassandra); the
     * contract opens two and has them race on the same keys.
     */
    SHARED
  }

  @TempDir Path dir;
  protected Storage storage;

  @BeforeEach
  void openStorage() {
    storage = open(dir);
  }

  @AfterEach
  void closeStorage() {
    if (storage != null) {
      storage.close();
      storage = null;
    }
  }

  // ---------------------------------------------------------------- spaces

  @Test
  void aNewStorageHasNoSpaces() {
    assertThat(storage.spaces()).isEmpty();
  }

  @Test
  void createListAndDropSpaces() {
    storage.createSpace("orders");
    storage.createSpace("orders.gsi.byCustomer");
    storage.createSpace("default");
    assertThat(storage.spaces())
        .containsExactlyInAnyOrder("orders", "orders.gsi.byCustomer", "default");

    storage.dropSpace("orders");
    assertThat(storage.spaces()).containsExactlyInAnyOrder("orders.gsi.byCustomer", "default");
    storage.dropSpace("no-such-space"); // dropping what is not there is not an error
    assertThat(storage.spaces()).containsExactlyInAnyOrder("orders.gsi.byCustomer", "default");
  }

  @Test
  void creatingAnExistingSpaceKeepsItsData() {
    storage.createSpace("t");
    put("t", key("p", "s"), "v");
    storage.createSpace("t");
    assertThat(value(storage.get("t", key("p", "s")))).isEqualTo("v");
  }

  @Test
  void droppingASpaceDropsItsDataAndOnlyItsData() {
    storage.createSpace("a");
    storage.createSpace("b");
    put("a", key("p", "s"), "in a");
    put("b", key("p", "s"), "in b");

    storage.dropSpace("a");
    storage.createSpace("a");

    assertThat(storage.get("a", key("p", "s"))).isEmpty();
    assertThat(storage.scan("a", null, null, null, 10)).isEmpty();
    assertThat(value(storage.get("b", key("p", "s")))).isEqualTo("in b");
  }

  @Test
  void readingAMissingSpaceFails() {
    assertThatThrownBy(() -> storage.get("nope", key("p", "s")))
        .isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> storage.scan("nope", null, null, null, 10))
        .isInstanceOf(StorageException.class);
  }

  // ---------------------------------------------------------------- get

  @Test
  void getReturnsTheCommittedRecord() {
    storage.createSpace("t");
    assertThat(storage.get("t", key("p", "s"))).isEmpty();

    put("t", key("p", "s"), "hello");

    StoredRecord r = storage.get("t", key("p", "s")).orElseThrow();
    assertThat(r.key()).isEqualTo(key("p", "s"));
    assertThat(new String(r.value(), UTF_8)).isEqualTo("hello");
    assertThat(r.version()).isNotEqualTo(Commit.Expectation.ABSENT);
    assertThat(storage.get("t", key("p", "t"))).isEmpty();
    assertThat(storage.get("t", key("q", "s"))).isEmpty();
  }

  // ---------------------------------------------------------------- getAll

  @Test
  void getAllReadsManyKeysOfSeveralSpacesInTheOrderAsked() {
    storage.createSpace("a");
    storage.createSpace("b");
    long va = put("a", key("p", "1"), "a1");
    long vb = put("b", key("p", "1"), "b1");
    put("a", key("q", ""), "aq");
    storage.commit(new Commit().delete("a", key("q", "")));
    List<StorageKey> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(key("m" + i, "s"));
    }
    Commit fill = new Commit();
    many.subList(0, 50).forEach(k -> fill.put("b", k, b(new String(k.partition(), UTF_8))));
    storage.commit(fill);

    for (Consistency consistency : Consistency.values()) {
      List<Optional<StoredRecord>> found = storage.getAll(List.of(
          new KeyRead("b", key("p", "1")),
          new KeyRead("a", key("p", "2")),
          new KeyRead("a", key("p", "1")),
          new KeyRead("a", key("q", "")),
          new KeyRead("a", key("p", "1"))), consistency);
      assertThat(found).hasSize(5);
      assertThat(value(found.get(0))).isEqualTo("b1");
      assertThat(found.get(0).orElseThrow().version()).isEqualTo(vb);
      assertThat(found.get(0).orElseThrow().key()).isEqualTo(key("p", "1"));
      assertThat(found.get(1)).isEmpty();
      assertThat(value(found.get(2))).isEqualTo("a1");
      assertThat(found.get(2).orElseThrow().version()).isEqualTo(va);
      assertThat(found.get(3)).as("deleted").isEmpty();
      assertThat(value(found.get(4))).isEqualTo("a1");

      // BatchGetItem's hundred keys, half of them present, in one call.
      List<Optional<StoredRecord>> hundred =
          storage.getAll(many.stream().map(k -> new KeyRead("b", k)).toList(), consistency);
      for (int i = 0; i < 100; i++) {
        if (i < 50) {
          assertThat(value(hundred.get(i))).isEqualTo("m" + i);
        } else {
          assertThat(hundred.get(i)).isEmpty();
        }
      }
      assertThat(storage.getAll(List.of(), consistency)).isEmpty();
    }
  }

  @Test
  void scanPagesSayWhetherMoreFollowAndTogetherReadTheRangeOnce() {
    storage.createSpace("t");
    List<StorageKey> all = new ArrayList<>();
    Commit fill = new Commit();
    for (int p = 0; p < 7; p++) {
      for (int s = 0; s < 3; s++) {
        StorageKey k = key("p" + p, "s" + s);
        all.add(k);
        fill.put("t", k, b("v"));
      }
    }
    storage.commit(fill);

    for (int limit : new int[] {1, 2, 3, 5, 20, 21, 22, Integer.MAX_VALUE}) {
      List<StorageKey> seen = new ArrayList<>();
      StorageKey after = null;
      int pages = 0;
      while (true) {
        ScanPage page = storage.scanPage("t", null, null, after, limit);
        assertThat(page.records().size()).isLessThanOrEqualTo(limit);
        seen.addAll(keys(page.records()));
        pages++;
        if (!page.more()) {
          break;
        }
        assertThat(page.records()).as("a page that says more follow has a record").isNotEmpty();
        after = page.records().get(page.records().size() - 1).key();
        assertThat(pages).as("pages of " + limit).isLessThanOrEqualTo(all.size());
      }
      assertThat(seen).as("limit " + limit).containsExactlyElementsOf(all);
    }
    // Within a range of partitions: the last page of the range says no more follow.
    ScanPage two = storage.scanPage("t", b("p2"), b("p4"), null, 6);
    assertThat(keys(two.records())).hasSize(6).startsWith(key("p2", "s0"));
    assertThat(two.more()).isFalse();
    ScanPage five = storage.scanPage("t", b("p2"), b("p4"), null, 5);
    assertThat(five.more()).isTrue();
    assertThat(storage.scanPage("t", b("x"), null, null, 5))
        .isEqualTo(new ScanPage(List.of(), false));
  }

  @Test
  void theSegmentsOfAParallelScanReadEveryRecordOnceAndHoldTheirOwnKeys() {
    storage.createSpace("t");
    List<StorageKey> all = new ArrayList<>();
    Commit fill = new Commit();
    for (int p = 0; p < 64; p++) {
      // Partitions spread over the byte order, as the engine's hashed ones are.
      byte[] partition = ByteBuffer.allocate(9).putLong(p * 0x0400_0000_0000_0000L + p)
          .put((byte) p).array();
      for (int s = 0; s < 2; s++) {
        StorageKey k = new StorageKey(partition, b("s" + s));
        all.add(k);
        fill.put("t", k, b("v"));
      }
    }
    storage.commit(fill);

    for (int total : new int[] {1, 2, 3, 7, 64, 100}) {
      List<StorageKey> seen = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        Segment segment = storage.segment("t", i, total);
        List<StorageKey> mine = keys(storage.scan(
            "t", segment.fromPartition(), segment.toPartition(), null, Integer.MAX_VALUE));
        for (StorageKey k : all) {
          assertThat(segment.contains(k)).as("segment %d of %d", i, total)
              .isEqualTo(mine.contains(k));
        }
        seen.addAll(mine);
      }
      assertThat(seen).as("segments of " + total).containsExactlyInAnyOrderElementsOf(all);
    }
  }

  @Test
  void getAllOfAMissingSpaceFails() {
    storage.createSpace("a");
    assertThatThrownBy(() -> storage.getAll(
            List.of(new KeyRead("a", key("p", "s")), new KeyRead("nope", key("p", "s"))),
            Consistency.STRONG))
        .isInstanceOf(StorageException.class);
  }

  @Test
  void emptySortKeyAndEmptyValueAreStored() {
    storage.createSpace("t");
    StorageKey hashOnly = StorageKey.of(b("p"));
    storage.commit(new Commit().put("t", hashOnly, new byte[0]));

    StoredRecord r = storage.get("t", hashOnly).orElseThrow();
    assertThat(r.value()).isEmpty();
    assertThat(r.key().sort()).isEmpty();
    assertThat(storage.query("t", b("p"), null, null, true, 10)).hasSize(1);
  }

  @Test
  void largeValuesRoundTrip() {
    storage.createSpace("t");
    byte[] big = new byte[400 * 1024];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31);
    }
    storage.commit(new Commit().put("t", key("p", "s"), big));
    assertThat(storage.get("t", key("p", "s")).orElseThrow().value()).isEqualTo(big);
  }

  // ---------------------------------------------------------------- query

  @Test
  void queryHonoursBoundsDirectionAndLimit() {
    storage.createSpace("t");
    for (String s : List.of("a", "b", "c", "d", "e")) {
      put("t", key("p", s), "p" + s);
    }
    // Neighbouring partitions that must never show up.
    put("t", key("o", "c"), "x");
    put("t", key("pa", "c"), "x");
    put("t", key("q", ""), "x");

    assertThat(sorts(storage.query("t", b("p"), null, null, true, 100)))
        .containsExactly("a", "b", "c", "d", "e");
    assertThat(sorts(storage.query("t", b("p"), null, null, false, 100)))
        .containsExactly("e", "d", "c", "b", "a");
    assertThat(sorts(storage.query("t", b("p"), Bound.inclusive(b("b")), null, true, 100)))
        .containsExactly("b", "c", "d", "e");
    assertThat(sorts(storage.query("t", b("p"), Bound.exclusive(b("b")), null, true, 100)))
        .containsExactly("c", "d", "e");
    assertThat(sorts(storage.query("t", b("p"), null, Bound.inclusive(b("d")), false, 100)))
        .containsExactly("d", "c", "b", "a");
    assertThat(sorts(storage.query("t", b("p"), null, Bound.exclusive(b("d")), false, 2)))
        .containsExactly("c", "b");
    assertThat(
            sorts(
                storage.query(
                    "t", b("p"), Bound.exclusive(b("a")), Bound.exclusive(b("e")), true, 2)))
        .containsExactly("b", "c");
    assertThat(
            sorts(
                storage.query(
                    "t", b("p"), Bound.inclusive(b("bb")), Bound.inclusive(b("dd")), false, 100)))
        .containsExactly("d", "c");
    assertThat(storage.query("t", b("nothing"), null, null, true, 100)).isEmpty();
  }

  @Test
  void queryWithEmptyOrInvertedRangeIsEmpty() {
    storage.createSpace("t");
    for (String s : List.of("a", "b", "c")) {
      put("t", key("p", s), s);
    }
    for (boolean forward : new boolean[] {true, false}) {
      assertThat(
              storage.query(
                  "t", b("p"), Bound.inclusive(b("c")), Bound.inclusive(b("a")), forward, 10))
          .isEmpty();
      assertThat(
              storage.query(
                  "t", b("p"), Bound.exclusive(b("b")), Bound.exclusive(b("b")), forward, 10))
          .isEmpty();
      assertThat(
              sorts(
                  storage.query(
                      "t", b("p"), Bound.inclusive(b("b")), Bound.inclusive(b("b")), forward, 10)))
          .containsExactly("b");
    }
  }

  /**
   * Every bound combination (none, inclusive, exclusive, on present and absent sort keys,
   * including keys made of 0x00 and 0xFF), both directions and several limits, against the model.
   */
  @Test
  void queryMatchesTheModelForEveryBoundCombination() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = new TreeMap<>();
    byte[][] partitions = {b("ab"), b("abc"), bytes('a', 'b', 0x00), bytes('a', 'b', 0xFF), b("")};
    byte[][] sorts = {
      bytes(), bytes(0x00), bytes(0x00, 0x00), bytes(0x00, 0x01), bytes(0x01), bytes(0x7F),
      bytes(0x80), bytes(0xFF), bytes(0xFF, 0x00), bytes(0xFF, 0xFF), b("m")
    };
    Commit commit = new Commit();
    for (byte[] p : partitions) {
      for (byte[] s : sorts) {
        StorageKey k = new StorageKey(p, s);
        String v = k.toString();
        commit.put("t", k, b(v));
        model.put(k, v);
      }
    }
    storage.commit(commit);

    byte[][] probes = {
      bytes(), bytes(0x00), bytes(0x00, 0x00, 0x00), bytes(0x01), bytes(0x40), bytes(0xFF),
      bytes(0xFF, 0xFF), bytes(0xFF, 0xFF, 0xFF)
    };
    List<Bound> bounds = new ArrayList<>();
    bounds.add(null);
    for (byte[] probe : probes) {
      bounds.add(Bound.inclusive(probe));
      bounds.add(Bound.exclusive(probe));
    }
    int checked = 0;
    for (byte[] p : partitions) {
      for (Bound lower : bounds) {
        for (Bound upper : bounds) {
          for (boolean forward : new boolean[] {true, false}) {
            for (int limit : new int[] {1, 3, 1000}) {
              List<StorageKey> expected = modelQuery(model, p, lower, upper, forward, limit);
              List<StorageKey> actual =
                  keys(storage.query("t", p, lower, upper, forward, limit));
              assertThat(actual)
                  .as("query %s lower=%s upper=%s forward=%s limit=%d",
                      hex(p), describe(lower), describe(upper), forward, limit)
                  .isEqualTo(expected);
              checked += expected.isEmpty() ? 0 : 1;
            }
          }
        }
      }
    }
    assertThat(checked).as("non-empty expectations").isGreaterThan(1000);
  }

  @Test
  void partitionsThatArePrefixesOfOneAnotherNeverLeak() {
    storage.createSpace("t");
    put("t", key("ab", "1"), "ab");
    put("t", new StorageKey(b("ab"), bytes(0xFF, 0xFF)), "ab-ff");
    put("t", new StorageKey(b("ab"), bytes(0x00)), "ab-00");
    put("t", key("abc", "1"), "abc");
    put("t", new StorageKey(b("abc"), bytes()), "abc-empty");
    put("t", new StorageKey(bytes('a', 'b', 0x00), bytes(0x01)), "ab00");
    put("t", new StorageKey(bytes('a', 'b', 0x00, 0x01), bytes(0x01)), "ab0001");
    put("t", new StorageKey(b("a"), bytes('b', 0x00, 0x01)), "a");

    assertThat(values(storage.query("t", b("ab"), null, null, true, 100)))
        .containsExactly("ab-00", "ab", "ab-ff");
    assertThat(values(storage.query("t", b("ab"), null, null, false, 100)))
        .containsExactly("ab-ff", "ab", "ab-00");
    assertThat(values(storage.query("t", b("abc"), null, null, false, 100)))
        .containsExactly("ab" + "c", "abc-empty");
    assertThat(values(storage.query("t", b("a"), null, null, false, 100))).containsExactly("a");
    assertThat(values(storage.query("t", bytes('a', 'b', 0x00), null, null, true, 100)))
        .containsExactly("ab00");
    assertThat(values(storage.query("t", bytes('a', 'b', 0x00), null, null, false, 100)))
        .containsExactly("ab00");
    assertThat(
            values(
                storage.query(
                    "t", b("ab"), Bound.exclusive(b("1")), Bound.inclusive(bytes(0xFF, 0xFF, 0xFF)),
                    false, 100)))
        .containsExactly("ab-ff");
    assertThat(value(storage.get("t", new StorageKey(bytes('a', 'b', 0x00, 0x01), bytes(0x01)))))
        .isEqualTo("ab0001");
  }

  // ---------------------------------------------------------------- scan

  @Test
  void scanReturnsEveryRecordInKeyOrder() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("t");

    assertThat(keys(storage.scan("t", null, null, null, 10_000)))
        .containsExactlyElementsOf(model.keySet());
    assertThat(keys(storage.scan("t", null, null, null, 3)))
        .containsExactlyElementsOf(model.keySet().stream().limit(3).toList());
  }

  @Test
  void scanHonoursPartitionBounds() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("t");
    byte[][] edges = {
      null, bytes(), b("a"), b("ab"), bytes('a', 'b', 0x00), b("abc"), bytes(0xFF), b("zz")
    };
    for (byte[] from : edges) {
      for (byte[] to : edges) {
        List<StorageKey> expected = inRange(model, from, to);
        assertThat(keys(storage.scan("t", from, to, null, 10_000)))
            .as("scan from %s to %s", hex(from), hex(to))
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void pagedScanReturnsEveryRecordExactlyOnce() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("t");
    byte[][][] ranges = {{null, null}, {b("ab"), b("abd")}, {bytes('a', 'b', 0x00), null}};
    for (byte[][] range : ranges) {
      List<StorageKey> expected =
          keys(storage.scan("t", range[0], range[1], null, 10_000));
      assertThat(expected).isNotEmpty();
      for (int page : new int[] {1, 2, 5}) {
        List<StorageKey> seen = new ArrayList<>();
        StorageKey after = null;
        while (true) {
          List<StoredRecord> records = storage.scan("t", range[0], range[1], after, page);
          assertThat(records.size()).isLessThanOrEqualTo(page);
          if (records.isEmpty()) {
            break;
          }
          seen.addAll(keys(records));
          after = records.get(records.size() - 1).key();
        }
        assertThat(seen).as("page size %d", page).isEqualTo(expected);
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
      }
    }
    assertThat(keys(storage.scan("t", null, null, null, 10_000))).hasSize(model.size());
  }

  @Test
  void scanStartAfterAKeyThatIsNotStored() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("t");
    StorageKey after = new StorageKey(b("ab"), bytes(0x00, 0x00, 0x05));
    assertThat(keys(storage.scan("t", null, null, after, 10_000)))
        .containsExactlyElementsOf(model.tailMap(after, false).keySet());
    // startAfter below fromPartition: the partition bound wins.
    assertThat(keys(storage.scan("t", b("abc"), null, after, 10_000)))
        .containsExactlyElementsOf(model.tailMap(StorageKey.of(b("abc")), true).keySet());
    // startAfter beyond toPartition: nothing.
    assertThat(storage.scan("t", null, b("a"), after, 10_000)).isEmpty();
  }

  // ---------------------------------------------------------------- scans across first bytes

  /*
   * A storage may spread a space by the first byte of its partitions (Cassandra's buckets), so
   * scans whose records, bounds and cursors straddle first bytes are checked on their own.
   */

  /**
   * Partitions whose first bytes differ, at the edges of the byte range: a scan returns them in
   * key order, resumes after each key, stored or not, and keeps bounds on or between them.
   */
  @Test
  void scansAcrossFirstBytesKeepKeyOrderBoundsAndCursors() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillFirstByteEdges("t");
    assertThat(keys(storage.scan("t", null, null, null, 10_000)))
        .containsExactlyElementsOf(model.keySet());

    List<StorageKey> cursors = new ArrayList<>(model.keySet());
    cursors.add(StorageKey.of(bytes()));
    cursors.add(StorageKey.of(bytes(0x00, 0x00)));
    cursors.add(new StorageKey(bytes(0x7F, 0xFF, 0xFF), bytes(0xFF)));
    cursors.add(StorageKey.of(bytes(0x80, 0x00, 0x00)));
    cursors.add(new StorageKey(bytes(0xFF, 0xFF, 0xFF), bytes(0xFF)));
    for (StorageKey after : cursors) {
      List<StorageKey> rest = List.copyOf(model.tailMap(after, false).keySet());
      assertThat(keys(storage.scan("t", null, null, after, 10_000)))
          .as("after %s", after).isEqualTo(rest);
      assertThat(keys(storage.scan("t", null, null, after, 2)))
          .as("two after %s", after).isEqualTo(rest.subList(0, Math.min(2, rest.size())));
    }

    byte[][] edges = {
      null, bytes(), bytes(0x00), bytes(0x00, 0x00), bytes(0x01), bytes(0x7F), bytes(0x7F, 0xFF),
      bytes(0x80), bytes(0x80, 0x00), bytes(0x81), bytes(0xFE, 0xFF), bytes(0xFF), bytes(0xFF, 0x00)
    };
    for (byte[] from : edges) {
      for (byte[] to : edges) {
        List<StorageKey> expected = inRange(model, from, to);
        assertThat(pageThrough("t", from, to, 2))
            .as("pages of two from %s to %s", hex(from), hex(to))
            .isEqualTo(expected);
      }
    }
  }

  /**
   * A page that fills up exactly where one first byte's records end, with more after them: it
   * may end there without looking further, and paging on reads every record once, in order;
   * where the range ends with the page, it says no more follow.
   */
  @Test
  void aPageFullWhereAFirstByteEndsIsFollowedByTheRest() {
    storage.createSpace("t");
    List<StorageKey> all = new ArrayList<>();
    Commit fill = new Commit();
    int[][] partitions = {{0x10, 0x01}, {0x10, 0x02}, {0x10, 0x03}, {0x20}, {0x20, 0x05}, {0xF0}};
    for (int[] p : partitions) {
      StorageKey k = new StorageKey(bytes(p), b("s"));
      all.add(k);
      fill.put("t", k, b("v"));
    }
    storage.commit(fill);

    ScanPage first = storage.scanPage("t", null, null, null, 3);
    assertThat(keys(first.records())).isEqualTo(all.subList(0, 3));
    assertThat(first.more()).isTrue();
    for (int limit = 1; limit <= all.size() + 1; limit++) {
      assertThat(pageThrough("t", null, null, limit)).as("pages of %d", limit).isEqualTo(all);
    }
    ScanPage ending = storage.scanPage("t", null, bytes(0x10, 0xFF), null, 3);
    assertThat(keys(ending.records())).isEqualTo(all.subList(0, 3));
    assertThat(ending.more()).isFalse();
    ScanPage afterLast = storage.scanPage("t", null, null, all.get(all.size() - 1), 3);
    assertThat(afterLast).isEqualTo(new ScanPage(List.of(), false));
  }

  /** Each segment of a parallel Scan, paged in small pages, reads its own keys once, in order. */
  @Test
  void segmentsPagedInSmallPagesReadTheirOwnKeysInOrder() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = new TreeMap<>();
    Commit fill = new Commit();
    for (int p = 0; p < 40; p++) {
      byte[] partition = ByteBuffer.allocate(8).putLong(p * 0x0680_0000_0000_0000L + p).array();
      for (int s = 0; s < 2; s++) {
        StorageKey k = new StorageKey(partition, b("s" + s));
        model.put(k, "v");
        fill.put("t", k, b("v"));
      }
    }
    storage.commit(fill);
    for (int total : new int[] {3, 7}) {
      List<StorageKey> seen = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        Segment segment = storage.segment("t", i, total);
        List<StorageKey> mine = pageThrough("t", segment.fromPartition(), segment.toPartition(), 3);
        assertThat(mine).as("segment %d of %d", i, total)
            .isEqualTo(model.keySet().stream().filter(segment::contains).toList());
        seen.addAll(mine);
      }
      assertThat(seen).as("segments of " + total).containsExactlyElementsOf(model.keySet());
    }
  }

  /** Every record of a range read with scanPage in pages of {@code limit}, checking each page. */
  private List<StorageKey> pageThrough(String space, byte[] from, byte[] to, int limit) {
    List<StorageKey> seen = new ArrayList<>();
    StorageKey after = null;
    for (int pages = 1; ; pages++) {
      ScanPage page = storage.scanPage(space, from, to, after, limit);
      assertThat(page.records().size()).isLessThanOrEqualTo(limit);
      seen.addAll(keys(page.records()));
      if (!page.more()) {
        return seen;
      }
      assertThat(page.records()).as("a page that says more follow has a record").isNotEmpty();
      after = page.records().get(page.records().size() - 1).key();
      assertThat(pages).as("pages").isLessThanOrEqualTo(1_000);
    }
  }

  /** Partitions at the edges of first bytes: empty, 0x00, 0x7F/0x80, 0xFF, and longer ones. */
  private TreeMap<StorageKey, String> fillFirstByteEdges(String space) {
    byte[][] partitions = {
      bytes(), bytes(0x00), bytes(0x00, 0x01), bytes(0x01), bytes(0x01, 0xFF), bytes(0x7F),
      bytes(0x7F, 0xFF), bytes(0x80), bytes(0x80, 0x00), bytes(0x80, 0x00, 0x01), bytes(0xFE, 0x10),
      bytes(0xFF), bytes(0xFF, 0xFF)
    };
    byte[][] sorts = {bytes(), bytes(0x00), bytes(0xFF)};
    return fill(space, partitions, sorts);
  }

  // ---------------------------------------------------------------- commits and versions

  @Test
  void aCommitWithAFailingExpectationWritesNothing() {
    storage.createSpace("items");
    storage.createSpace("index");
    put("items", key("p", "existing"), "old");
    long version = storage.get("items", key("p", "existing")).orElseThrow().version();

    Commit.Expectation wrong = new Commit.Expectation("items", key("p", "existing"), version + 1);
    Commit commit =
        new Commit()
            .put("items", key("p", "new"), b("new"))
            .put("index", key("i", "new"), b("entry"))
            .delete("items", key("p", "existing"))
            .expect("items", key("p", "absent"), Commit.Expectation.ABSENT)
            .expect(wrong.space(), wrong.key(), wrong.version());

    assertThatThrownBy(() -> storage.commit(commit))
        .isInstanceOfSatisfying(
            CommitConflictException.class, e -> assertThat(e.failed()).isEqualTo(wrong));

    assertThat(storage.get("items", key("p", "new"))).isEmpty();
    assertThat(storage.get("index", key("i", "new"))).isEmpty();
    assertThat(value(storage.get("items", key("p", "existing")))).isEqualTo("old");
    assertThat(storage.get("items", key("p", "existing")).orElseThrow().version())
        .isEqualTo(version);
  }

  @Test
  void aCommitToAMissingSpaceWritesNothing() {
    storage.createSpace("items");
    Commit commit =
        new Commit().put("items", key("p", "s"), b("v")).put("gone", key("p", "s"), b("v"));
    assertThatThrownBy(() -> storage.commit(commit)).isInstanceOf(StorageException.class);
    assertThat(storage.get("items", key("p", "s"))).isEmpty();
  }

  /**
   * A commit whose expectation fails is a conflict though a space it writes is gone: a write
   * staged with a definition that named a space dropped since (a table's change history) must
   * meet the changed definition as a conflict, and write again, not fail.
   */
  @Test
  void aFailedExpectationIsAConflictEvenWhenASpaceWrittenIsGone() {
    storage.createSpace("catalog");
    long read = storage.commit(new Commit().put("catalog", key("t", ""), b("v1")));
    storage.commit(new Commit().put("catalog", key("t", ""), b("v2")));
    storage.createSpace("history");
    storage.dropSpace("history");
    Commit stale = new Commit().expect("catalog", key("t", ""), read)
        .put("history", key("p", "s"), b("record"));
    assertThatThrownBy(() -> storage.commit(stale)).isInstanceOf(CommitConflictException.class);
  }

  /** A commit applies every write, in every space, and returns the one version its puts got. */
  @Test
  void aCommitAppliesEveryWriteAcrossSpacesAndReturnsTheVersionOfItsPuts() {
    storage.createSpace("items");
    storage.createSpace("index");
    put("items", key("p", "gone"), "x");
    long version =
        storage.commit(
            new Commit()
                .put("items", key("p", "a"), b("A"))
                .put("index", key("i", "a"), b("IA"))
                .delete("items", key("p", "gone"))
                .expect("items", key("p", "a"), Commit.Expectation.ABSENT));

    assertThat(value(storage.get("items", key("p", "a")))).isEqualTo("A");
    assertThat(value(storage.get("index", key("i", "a")))).isEqualTo("IA");
    assertThat(storage.get("items", key("p", "gone"))).isEmpty();
    assertThat(version).isNotEqualTo(Commit.Expectation.ABSENT);
    assertThat(version("items", key("p", "a"))).isEqualTo(version);
    assertThat(version("index", key("i", "a"))).isEqualTo(version);
    // A commit without puts gives no version to anything.
    assertThat(storage.commit(new Commit().delete("items", key("p", "a"))))
        .isEqualTo(Commit.Expectation.ABSENT);
    assertThat(storage.commit(new Commit().expect("index", key("i", "a"), version)))
        .isEqualTo(Commit.Expectation.ABSENT);
  }

  /**
   * A put never gives a key a version it had before, also after a delete and re-create, so an
   * expectation of an old version fails; and no two commits get one version. The SPI asks for
   * no order among versions, only that none comes back.
   */
  @Test
  void noVersionIsIssuedTwiceAlsoAfterDeleteAndRecreate() {
    storage.createSpace("t");
    StorageKey k = key("p", "s");
    Set<Long> issued = new HashSet<>();
    long v1 = put("t", k, "1");
    assertThat(issued.add(v1)).isTrue();
    long v2 = put("t", k, "2");
    assertThat(issued.add(v2)).as("version %d again", v2).isTrue();

    storage.commit(new Commit().delete("t", k).expect("t", k, v2));
    assertThat(storage.get("t", k)).isEmpty();

    long v3 =
        storage.commit(new Commit().put("t", k, b("3")).expect("t", k, Commit.Expectation.ABSENT));
    assertThat(issued.add(v3)).as("version %d again", v3).isTrue();
    assertThatThrownBy(() -> storage.commit(new Commit().put("t", k, b("4")).expect("t", k, v1)))
        .isInstanceOf(CommitConflictException.class);
    assertThatThrownBy(() -> storage.commit(new Commit().put("t", k, b("4")).expect("t", k, v2)))
        .isInstanceOf(CommitConflictException.class);

    // Other keys' versions are new too: nothing is ever issued twice.
    for (int i = 0; i < 20; i++) {
      long v = put("t", key("p", "other" + i % 3), "x");
      assertThat(issued.add(v)).as("version %d again", v).isTrue();
    }
  }

  @Test
  void expectationsCompareExactVersions() {
    storage.createSpace("t");
    StorageKey k = key("p", "s");
    put("t", k, "1");
    long v1 = version("t", k);

    assertThatThrownBy(
            () ->
                storage.commit(
                    new Commit().put("t", k, b("x")).expect("t", k, Commit.Expectation.ABSENT)))
        .isInstanceOf(CommitConflictException.class);
    assertThatThrownBy(
            () -> storage.commit(new Commit().put("t", k, b("x")).expect("t", k, v1 - 1)))
        .isInstanceOf(CommitConflictException.class);

    storage.commit(new Commit().put("t", k, b("2")).expect("t", k, v1));
    assertThat(value(storage.get("t", k))).isEqualTo("2");

    // The old version no longer matches.
    assertThatThrownBy(() -> storage.commit(new Commit().put("t", k, b("y")).expect("t", k, v1)))
        .isInstanceOf(CommitConflictException.class);
    // An expectation on a key that does not exist fails unless it expects ABSENT.
    assertThatThrownBy(
            () -> storage.commit(new Commit().put("t", k, b("y")).expect("t", key("p", "no"), 7)))
        .isInstanceOf(CommitConflictException.class);
    assertThat(value(storage.get("t", k))).isEqualTo("2");
  }

  @Test
  void anExpectationAloneGuardsWritesToOtherKeys() {
    storage.createSpace("t");
    put("t", key("lock", ""), "held");
    long lock = version("t", key("lock", ""));
    storage.commit(new Commit().put("t", key("p", "a"), b("a")).expect("t", key("lock", ""), lock));
    assertThat(value(storage.get("t", key("p", "a")))).isEqualTo("a");
    assertThat(version("t", key("lock", ""))).isEqualTo(lock);
  }

  /**
   * A commit of expectations and no writes checks that every version held at one instant and
   * writes nothing: TransactGetItems proves its snapshot so. It succeeds when all hold and names
   * the failed one otherwise, like any commit.
   */
  @Test
  void aCommitOfExpectationsAloneChecksThemAndWritesNothing() {
    storage.createSpace("t");
    storage.createSpace("u");
    put("t", key("p", "a"), "a");
    put("u", key("p", "b"), "b");
    long a = version("t", key("p", "a"));
    long b = version("u", key("p", "b"));

    storage.commit(
        new Commit()
            .expect("t", key("p", "a"), a)
            .expect("u", key("p", "b"), b)
            .expect("t", key("p", "absent"), Commit.Expectation.ABSENT));
    assertThat(version("t", key("p", "a"))).isEqualTo(a);
    assertThat(version("u", key("p", "b"))).isEqualTo(b);
    assertThat(storage.get("t", key("p", "absent"))).isEmpty();

    Commit.Expectation stale = new Commit.Expectation("u", key("p", "b"), b - 1);
    assertThatThrownBy(
            () ->
                storage.commit(
                    new Commit()
                        .expect("t", key("p", "a"), a)
                        .expect(stale.space(), stale.key(), stale.version())))
        .isInstanceOfSatisfying(
            CommitConflictException.class, e -> assertThat(e.failed()).isEqualTo(stale));
    assertThat(version("u", key("p", "b"))).isEqualTo(b);
  }

  @Test
  void deletesRemoveRecordsFromEveryRead() {
    storage.createSpace("t");
    for (String s : List.of("a", "b", "c")) {
      put("t", key("p", s), s);
    }
    storage.commit(new Commit().delete("t", key("p", "b")).delete("t", key("p", "never")));

    assertThat(storage.get("t", key("p", "b"))).isEmpty();
    assertThat(sorts(storage.query("t", b("p"), null, null, true, 10))).containsExactly("a", "c");
    assertThat(sorts(storage.query("t", b("p"), null, null, false, 10)))
        .containsExactly("c", "a");
    assertThat(keys(storage.scan("t", null, null, null, 10)))
        .containsExactly(key("p", "a"), key("p", "c"));
  }

  @Test
  void lastWriteToAKeyInOneCommitWins() {
    storage.createSpace("t");
    storage.commit(
        new Commit()
            .put("t", key("p", "a"), b("first"))
            .put("t", key("p", "a"), b("second"))
            .put("t", key("p", "b"), b("kept"))
            .delete("t", key("p", "b"))
            .put("t", key("p", "b"), b("back")));
    assertThat(value(storage.get("t", key("p", "a")))).isEqualTo("second");
    assertThat(value(storage.get("t", key("p", "b")))).isEqualTo("back");
  }

  // ---------------------------------------------------------------- stats

  @Test
  void statsCountRecordsAndBytes() {
    storage.createSpace("t");
    storage.createSpace("other");
    assertThat(storage.stats("t").records()).isZero();

    Commit commit = new Commit();
    for (int i = 0; i < 100; i++) {
      commit.put("t", key("p" + (i % 7), "s" + i), new byte[100]);
    }
    storage.commit(commit);

    SpaceStats stats = storage.stats("t");
    assertThat(stats.records()).isEqualTo(100);
    assertThat(stats.bytes()).isGreaterThan(0);
    assertThat(storage.stats("other").records()).isZero();
  }

  // ---------------------------------------------------------------- concurrency

  /**
   * Optimistic increments from many threads: read the counter and its version, commit the next
   * value expecting that version. Whatever interleaving happens, no increment is lost: the final
   * count equals the number of commits that succeeded.
   */
  @Test
  void concurrentConditionalIncrementsLoseNoUpdate() throws Exception {
    storage.createSpace("t");
    StorageKey counter = key("counter", "");
    put("t", counter, ByteBuffer.allocate(8).putLong(0).array());
    int threads = 8;
    int attempts = contended(300);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  int succeeded = 0;
                  for (int i = 0; i < attempts; i++) {
                    StoredRecord current = storage.get("t", counter).orElseThrow();
                    long next = ByteBuffer.wrap(current.value()).getLong() + 1;
                    try {
                      storage.commit(
                          new Commit()
                              .put("t", counter, ByteBuffer.allocate(8).putLong(next).array())
                              .expect("t", counter, current.version()));
                      succeeded++;
                    } catch (CommitConflictException expected) {
                      // Another thread won this round; the contract is that we wrote nothing.
                    }
                  }
                  return succeeded;
                }));
      }
      start.countDown();
      int succeeded = 0;
      for (Future<Integer> f : results) {
        succeeded += f.get(2, TimeUnit.MINUTES);
      }
      long count = ByteBuffer.wrap(storage.get("t", counter).orElseThrow().value()).getLong();
      assertThat(succeeded).isGreaterThan(0);
      assertThat(count).isEqualTo(succeeded);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- two instances, one store

  /**
   * Two instances on one store write the same keys at once, each from two threads: every
   * version either issued is one no commit got before, and no conditional increment is lost, as
   * if one instance had made them all. Versions from each process's clock failed this: two
   * instances committing in the same microsecond issued one version, and a writer that held it
   * from the first commit passed its check against the second.
   */
  @Test
  void twoInstancesOnOneStoreNeverIssueOneVersionTwiceNorLoseAnUpdate() throws Exception {
    assumeTrue(sharing() == Sharing.SHARED, "instances of this storage share no store");
    storage.createSpace("t");
    StorageKey counter = key("counter", "");
    put("t", counter, ByteBuffer.allocate(8).putLong(0).array());
    int threadsPerInstance = 2;
    int rounds = 40;
    try (Storage second = open(dir)) {
      assertThat(second.spaces()).contains("t");
      List<Storage> instances = List.of(storage, second);
      ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerInstance);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Writes>> results = new ArrayList<>();
      try {
        for (Storage instance : instances) {
          for (int t = 0; t < threadsPerInstance; t++) {
            results.add(pool.submit(() -> {
              start.await();
              Writes writes = new Writes(new ArrayList<>(), new int[1]);
              for (int i = 0; i < rounds; i++) {
                // Both instances put the same few keys, unconditionally.
                writes.versions().add(
                    instance.commit(new Commit().put("t", key("shared", "" + i % 4), b("x"))));
                StoredRecord current = instance.get("t", counter).orElseThrow();
                long next = ByteBuffer.wrap(current.value()).getLong() + 1;
                try {
                  writes.versions().add(
                      instance.commit(
                          new Commit()
                              .put("t", counter, ByteBuffer.allocate(8).putLong(next).array())
                              .expect("t", counter, current.version())));
                  writes.increments()[0]++;
                } catch (CommitConflictException expected) {
                  // the other thread or instance won this round; nothing was written
                }
              }
              return writes;
            }));
          }
        }
        start.countDown();
        List<Long> versions = new ArrayList<>();
        int increments = 0;
        for (Future<Writes> f : results) {
          Writes w = f.get(5, TimeUnit.MINUTES);
          versions.addAll(w.versions());
          increments += w.increments()[0];
        }
        assertThat(versions).hasSize(2 * threadsPerInstance * rounds + increments);
        assertThat(new HashSet<>(versions)).as("distinct versions").hasSize(versions.size());
        assertThat(increments).isPositive();
        for (Storage instance : instances) {
          StoredRecord count = instance.get("t", counter).orElseThrow();
          assertThat(ByteBuffer.wrap(count.value()).getLong()).isEqualTo(increments);
          assertThat(versions).contains(count.version());
          for (int k = 0; k < 4; k++) {
            assertThat(versions).contains(instance.get("t", key("shared", "" + k)).orElseThrow()
                .version());
          }
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** What one writer of the test above got: its commits' versions, and its increments. */
  private record Writes(List<Long> versions, int[] increments) {}

  /**
   * A store that one instance at a time may open refuses a second while the first has it, so one
   * instance issues all of its versions; the refusal leaves the first instance writing as before.
   * (That a second process is refused too is the same lock; across a reopen, versions stay new:
   * see {@link #reopeningKeepsSpacesRecordsAndVersions}.)
   */
  @Test
  void aStoreOpenInOneInstanceCannotBeOpenedInAnother() {
    assumeTrue(sharing() == Sharing.EXCLUSIVE, "the storage opens no store exclusively");
    storage.createSpace("t");
    long first = put("t", key("p", ""), "1");
    assertThatThrownBy(() -> open(dir).close()).isInstanceOf(StorageException.class);
    long second = put("t", key("p", ""), "2");
    assertThat(second).isNotEqualTo(first);
    assertThat(value(storage.get("t", key("p", "")))).isEqualTo("2");
  }

  /**
   * A record moved between two sort keys by one commit (delete one, put the other) is seen by
   * every range read exactly once: a read observes a commit wholly or not at all. Secondary
   * indexes rely on it when an item's index key changes. A race that shows once in thousands of
   * reads needs many rounds to show: {@code -Dstator.test.rangeReadRounds=50} runs fifty (one
   * round of two seconds is the default).
   */
  @Test
  void rangeReadsSeeEachCommitWhollyOrNotAtAll() throws Exception {
    int rounds = Integer.getInteger("stator.test.rangeReadRounds", 1);
    for (int round = 0; round < rounds; round++) {
      rangeReadsSeeEachCommitWhollyOrNotAtAll("t" + round);
    }
  }

  private void rangeReadsSeeEachCommitWhollyOrNotAtAll(String t) throws Exception {
    storage.createSpace(t);
    put(t, key("p", "a"), "v");
    AtomicBoolean stop = new AtomicBoolean();
    // The mover starts once the reader has read: its two seconds of moves then surely meet
    // reads, however late the scheduler starts the reader.
    CountDownLatch reading = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Integer> mover =
          pool.submit(
              () -> {
                assertThat(reading.await(60, TimeUnit.SECONDS)).as("the reader started").isTrue();
                String at = "a";
                int moves = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                for (; moves < 200_000 && System.nanoTime() < deadline; moves++) {
                  String next = at.equals("a") ? "z" : "a";
                  storage.commit(
                      new Commit()
                          .delete(t, key("p", at))
                          .put(t, key("p", next), "v".getBytes(StandardCharsets.UTF_8)));
                  at = next;
                }
                stop.set(true);
                return moves;
              });
      Future<Integer> reader =
          pool.submit(
              () -> {
                int reads = 0;
                while (!stop.get()) {
                  assertThat(storage.query(t, "p".getBytes(StandardCharsets.UTF_8), null, null,
                          reads % 2 == 0, 10))
                      .hasSize(1);
                  assertThat(storage.scan(t, null, null, null, 10)).hasSize(1);
                  reads++;
                  reading.countDown();
                }
                return reads;
              });
      assertThat(mover.get(2, TimeUnit.MINUTES)).isPositive();
      assertThat(reader.get(2, TimeUnit.MINUTES)).isPositive();
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- copy

  /**
   * Whether {@link Storage#copySpace} copies at one instant while commits go on (a storage in one
   * process); the default, paging through the source, does not.
   */
  protected boolean copiesAtOneInstant() {
    return true;
  }

  /**
   * A copy holds exactly the source's records when it was taken, over pages and batches (records
   * of 2 KB, more than a megabyte in all), partitions that prefix one another included; commits
   * to either space afterwards do not reach the other; a durable storage keeps the copy.
   */
  @Test
  void aCopyHoldsTheSourceAsItWasAndNothingWrittenAfter() {
    storage.createSpace("t");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("t");
    Commit fill = new Commit();
    String large = "x".repeat(2048);
    for (int i = 0; i < 600; i++) {
      StorageKey k = new StorageKey(bytes(i % 256, i / 256, 7), b("s" + i));
      fill.put("t", k, b(large + i));
      model.put(k, large + i);
    }
    storage.commit(fill);

    storage.copySpace("t", "copy");

    StorageKey first = model.firstKey();
    storage.commit(new Commit().put("t", key("later", ""), b("later")).delete("t", first)
        .put("t", model.lastKey(), b("changed")));
    storage.commit(new Commit().put("copy", key("only-copy", ""), b("c")));
    assertThat(storage.spaces()).contains("t", "copy");
    assertCopy("copy", model, key("only-copy", ""));
    assertThat(storage.get("t", key("only-copy", ""))).isEmpty();
    assertThat(value(storage.get("t", model.lastKey()))).isEqualTo("changed");
    assertThat(keys(storage.query("copy", b("ab"), null, null, true, 100)))
        .containsExactlyElementsOf(modelQuery(model, b("ab"), null, null, true, 100));

    storage.dropSpace("t");
    assertCopy("copy", model, key("only-copy", ""));
    if (durable()) {
      storage.close();
      storage = open(dir);
      assertCopy("copy", model, key("only-copy", ""));
    }
  }

  /** The copy's records are the model's, plus the one key written to the copy afterwards. */
  private void assertCopy(String space, TreeMap<StorageKey, String> model, StorageKey written) {
    List<StoredRecord> copied = storage.scan(space, null, null, null, 10_000);
    TreeMap<StorageKey, String> expected = new TreeMap<>(model);
    expected.put(written, "c");
    assertThat(keys(copied)).containsExactlyElementsOf(expected.keySet());
    assertThat(values(copied)).containsExactlyElementsOf(expected.values());
  }

  @Test
  void copyingAMissingSpaceFailsAndCreatesNothing() {
    assertThatThrownBy(() -> storage.copySpace("missing", "copy"))
        .isInstanceOf(StorageException.class);
    assertThat(storage.spaces()).doesNotContain("copy");
  }

  /**
   * A copy taken while commits go on sees each commit wholly or not at all, also when it moves
   * records between the first and the last partitions of the space with a thousand records
   * between them: a writer keeps putting the same count under both, and every copy holds one
   * count under both.
   */
  @Test
  void aCopyIsOneInstantWhileCommitsGoOn() throws Exception {
    assumeTrue(copiesAtOneInstant(), "the storage copies page by page");
    storage.createSpace("t");
    Commit fill = new Commit();
    for (int i = 0; i < 1000; i++) {
      fill.put("t", new StorageKey(bytes(0x40 + i % 64, i / 64), b("s")), b("filler" + i));
    }
    storage.commit(fill);
    StorageKey low = new StorageKey(bytes(0x00), b(""));
    StorageKey high = new StorageKey(bytes(0xFF, 0xFF), b(""));
    storage.commit(new Commit().put("t", low, b("0")).put("t", high, b("0")));
    AtomicBoolean stop = new AtomicBoolean();
    // The copies start once the writer has committed: they then surely race its commits,
    // however late the scheduler starts it.
    CountDownLatch writing = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> writer =
          pool.submit(
              () -> {
                int n = 0;
                while (!stop.get()) {
                  n++;
                  storage.commit(
                      new Commit().put("t", low, b("" + n)).put("t", high, b("" + n)));
                  writing.countDown();
                }
                return n;
              });
      assertThat(writing.await(60, TimeUnit.SECONDS)).as("the writer started").isTrue();
      for (int i = 0; i < 20; i++) {
        storage.copySpace("t", "copy" + i);
        String lowCount = value(storage.get("copy" + i, low));
        assertThat(value(storage.get("copy" + i, high))).isEqualTo(lowCount);
        assertThat(storage.scan("copy" + i, null, null, null, 2000)).hasSize(1002);
      }
      stop.set(true);
      assertThat(writer.get(2, TimeUnit.MINUTES)).isPositive();
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- group commit

  /**
   * Group commit ({@link GroupCommit}): a thread that defers durability sees its commits visible
   * to every other thread as soon as they return, its failed commits still write nothing, and
   * {@code awaitDurable} returns for every thread that calls it, at once or together, with or
   * without commits to wait for; what it waited for is there after a reopen.
   */
  @Test
  void groupCommitKeepsVisibilityAtomicityAndDurability() throws Exception {
    storage.createSpace("t");
    storage.awaitDurable(); // nothing to wait for
    int threads = 4;
    int commits = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String writer = "w" + t;
        results.add(
            pool.submit(
                () -> {
                  storage.deferDurabilityOnThisThread();
                  start.await();
                  int conflicts = 0;
                  for (int i = 0; i < commits; i++) {
                    StorageKey k = key(writer, String.format("%03d", i));
                    storage.commit(
                        new Commit().put("t", k, ("v" + i).getBytes(StandardCharsets.UTF_8)));
                    // visible before it is durable, to this thread and to the test's
                    assertThat(storage.get("t", k)).isPresent();
                    try {
                      storage.commit(
                          new Commit()
                              .put("t", key(writer, "never"), new byte[] {1})
                              .expect("t", k, Commit.Expectation.ABSENT));
                    } catch (CommitConflictException expected) {
                      conflicts++;
                    }
                    if (i % 10 == 9) {
                      storage.awaitDurable();
                    }
                  }
                  storage.awaitDurable();
                  return conflicts;
                }));
      }
      start.countDown();
      for (Future<Integer> f : results) {
        assertThat(f.get(2, TimeUnit.MINUTES)).isEqualTo(commits);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(storage.scan("t", null, null, null, 10_000)).hasSize(threads * commits);
    for (int t = 0; t < threads; t++) {
      assertThat(storage.get("t", key("w" + t, "never"))).isEmpty();
    }
    if (durable()) {
      storage.close();
      storage = open(dir);
      assertThat(storage.scan("t", null, null, null, 10_000)).hasSize(threads * commits);
    }
  }

  // ---------------------------------------------------------------- durability

  @Test
  void reopeningKeepsSpacesRecordsAndVersions() {
    assumeTrue(durable(), "the storage is not durable");
    storage.createSpace("items");
    storage.createSpace("catalog");
    storage.createSpace("dropped");
    TreeMap<StorageKey, String> model = fillPrefixHeavySpace("items");
    put("catalog", key("table", ""), "schema");
    storage.commit(new Commit().delete("items", model.firstKey()));
    model.remove(model.firstKey());
    storage.dropSpace("dropped");
    List<StoredRecord> before = storage.scan("items", null, null, null, 10_000);
    Set<Long> issued = new HashSet<>();
    before.forEach(r -> issued.add(r.version()));
    issued.add(version("catalog", key("table", "")));

    storage.close();
    storage = open(dir);

    assertThat(storage.spaces()).containsExactlyInAnyOrder("items", "catalog");
    List<StoredRecord> after = storage.scan("items", null, null, null, 10_000);
    assertThat(keys(after)).containsExactlyElementsOf(model.keySet());
    for (int i = 0; i < before.size(); i++) {
      assertThat(after.get(i).version()).isEqualTo(before.get(i).version());
      assertThat(after.get(i).value()).isEqualTo(before.get(i).value());
    }
    assertThat(value(storage.get("catalog", key("table", "")))).isEqualTo("schema");

    // Versions issued after a restart are none of those issued before.
    long next = put("items", key("new", ""), "n");
    assertThat(issued).doesNotContain(next);

    storage.close();
    storage = open(dir);
    assertThat(value(storage.get("items", key("new", "")))).isEqualTo("n");
  }

  // ---------------------------------------------------------------- property: order

  private Storage propertyStorage;
  private Path propertyDir;
  private int propertySpaces;

  @BeforeProperty
  void openPropertyStorage() throws IOException {
    propertyDir = Files.createTempDirectory("storage-contract");
    propertyStorage = open(propertyDir);
  }

  @AfterProperty
  void closePropertyStorage() throws IOException {
    propertyStorage.close();
    try (Stream<Path> files = Files.walk(propertyDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(StorageContract::delete);
    }
  }

  /**
   * Whatever bytes keys are made of, a full scan returns them in {@link StorageKey} order (unsigned
   * lexicographic by partition, then sort), and a query of each partition returns exactly that
   * partition's records, in both directions.
   */
  @Property(tries = 150)
  void scanOrderIsStorageKeyOrder(@ForAll("keys") List<StorageKey> keys) {
    String space = "p" + propertySpaces++;
    propertyStorage.createSpace(space);
    try {
      TreeMap<StorageKey, byte[]> model = new TreeMap<>();
      Commit commit = new Commit();
      for (StorageKey k : keys) {
        byte[] v = b(k.toString());
        commit.put(space, k, v);
        model.put(k, v);
      }
      propertyStorage.commit(commit);

      assertThat(keys(propertyStorage.scan(space, null, null, null, 100_000)))
          .containsExactlyElementsOf(model.keySet());
      for (StorageKey k : model.keySet()) {
        List<StorageKey> partition =
            model.keySet().stream()
                .filter(m -> Arrays.equals(m.partition(), k.partition()))
                .toList();
        assertThat(keys(propertyStorage.query(space, k.partition(), null, null, true, 100_000)))
            .isEqualTo(partition);
        List<StorageKey> reversed = new ArrayList<>(partition);
        Collections.reverse(reversed);
        assertThat(keys(propertyStorage.query(space, k.partition(), null, null, false, 100_000)))
            .isEqualTo(reversed);
        assertThat(propertyStorage.get(space, k).orElseThrow().value()).isEqualTo(model.get(k));
      }
    } finally {
      propertyStorage.dropSpace(space);
    }
  }

  @Provide
  Arbitrary<List<StorageKey>> keys() {
    // Bytes biased towards the values an escaping scheme treats specially.
    Arbitrary<Byte> interesting =
        Arbitraries.of((byte) 0x00, (byte) 0x01, (byte) 0x02, (byte) 0x7F, (byte) 0x80, (byte) 0xFE,
            (byte) 0xFF);
    Arbitrary<Byte> any = Arbitraries.frequencyOf(
        Tuple.of(3, interesting), Tuple.of(1, Arbitraries.bytes()));
    Arbitrary<byte[]> partition =
        any.list().ofMaxSize(4).map(StorageContract::toArray);
    Arbitrary<byte[]> sort = any.list().ofMaxSize(4).map(StorageContract::toArray);
    Arbitrary<StorageKey> key = Combinators.combine(partition, sort)
        .as(StorageKey::new);
    return key.list().ofMinSize(1).ofMaxSize(40);
  }

  // ---------------------------------------------------------------- helpers

  protected static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  protected static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  protected static StorageKey key(String partition, String sort) {
    return new StorageKey(b(partition), b(sort));
  }

  /** Puts {@code value} under {@code key}; returns the version it got. */
  protected long put(String space, StorageKey key, String value) {
    return put(space, key, b(value));
  }

  protected long put(String space, StorageKey key, byte[] value) {
    return storage.commit(new Commit().put(space, key, value));
  }

  protected long version(String space, StorageKey key) {
    return storage.get(space, key).orElseThrow().version();
  }

  protected static String value(Optional<StoredRecord> record) {
    return new String(record.orElseThrow().value(), UTF_8);
  }

  protected static List<StorageKey> keys(List<StoredRecord> records) {
    return records.stream().map(StoredRecord::key).toList();
  }

  private static List<String> sorts(List<StoredRecord> records) {
    return records.stream().map(r -> new String(r.key().sort(), UTF_8)).toList();
  }

  private static List<String> values(List<StoredRecord> records) {
    return records.stream().map(r -> new String(r.value(), UTF_8)).toList();
  }

  /** Fills a space with partitions that prefix one another and sort keys with 0x00 and 0xFF. */
  private TreeMap<StorageKey, String> fillPrefixHeavySpace(String space) {
    byte[][] partitions = {
      bytes(), b("a"), b("ab"), bytes('a', 'b', 0x00), bytes('a', 'b', 0x00, 0x01), b("abc"),
      bytes('a', 'b', 0xFF), b("b"), bytes(0xFF, 0xFF)
    };
    byte[][] sorts = {bytes(), bytes(0x00), bytes(0x00, 0x00, 0x05, 0x00), bytes(0x01),
      bytes(0xFF), bytes(0xFF, 0x00)};
    return fill(space, partitions, sorts);
  }

  /** The model's keys whose partition lies in {@code [from, to)} (null: unbounded), in order. */
  private static List<StorageKey> inRange(TreeMap<StorageKey, String> model, byte[] from, byte[] to) {
    return model.keySet().stream()
        .filter(k -> from == null || Arrays.compareUnsigned(k.partition(), from) >= 0)
        .filter(k -> to == null || Arrays.compareUnsigned(k.partition(), to) < 0)
        .toList();
  }

  /** Commits a record under each partition and sort key, its key's text as its value. */
  private TreeMap<StorageKey, String> fill(String space, byte[][] partitions, byte[][] sorts) {
    TreeMap<StorageKey, String> model = new TreeMap<>();
    Commit commit = new Commit();
    for (byte[] p : partitions) {
      for (byte[] s : sorts) {
        StorageKey k = new StorageKey(p, s);
        commit.put(space, k, b(k.toString()));
        model.put(k, k.toString());
      }
    }
    storage.commit(commit);
    return model;
  }

  private static List<StorageKey> modelQuery(
      TreeMap<StorageKey, String> model, byte[] partition, Bound lower, Bound upper,
      boolean forward, int limit) {
    List<StorageKey> out = new ArrayList<>();
    for (StorageKey k : model.keySet()) {
      if (!Arrays.equals(k.partition(), partition)) {
        continue;
      }
      if (lower != null) {
        int c = Arrays.compareUnsigned(k.sort(), lower.sort());
        if (c < 0 || (c == 0 && !lower.inclusive())) {
          continue;
        }
      }
      if (upper != null) {
        int c = Arrays.compareUnsigned(k.sort(), upper.sort());
        if (c > 0 || (c == 0 && !upper.inclusive())) {
          continue;
        }
      }
      out.add(k);
    }
    if (!forward) {
      Collections.reverse(out);
    }
    return out.subList(0, Math.min(limit, out.size()));
  }

  private static String describe(Bound bound) {
    return bound == null ? "none" : (bound.inclusive() ? "[" : "(") + hex(bound.sort());
  }

  private static String hex(byte[] bytes) {
    return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
  }

  private static byte[] toArray(List<Byte> list) {
    byte[] out = new byte[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = list.get(i);
    }
    return out;
  }

  private static void delete(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
