package io.stator.bench;

import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The stored-item codec, DynamoDB's item size, and the order-preserving key codec. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBench {
  private final Map<String, AttributeValue> item = Data.item(7, 3, 73);
  private final byte[] encoded = ItemCodec.encode(item);
  private final AttributeValue partition = AttributeValue.s("p0007");
  private final AttributeValue sort = AttributeValue.n("3");
  private final AttributeValue decimalSort = AttributeValue.n("-12345.678e-3");
  private final byte[] partitionBytes = KeyCodec.partition(partition);
  private final byte[] sortBytes = KeyCodec.sort(decimalSort);

  @Benchmark
  public byte[] itemEncode() {
    return ItemCodec.encode(item);
  }

  @Benchmark
  public Map<String, AttributeValue> itemDecode() {
    return ItemCodec.decode(encoded);
  }

  @Benchmark
  public long itemSize() {
    return ItemSize.of(item);
  }

  @Benchmark
  public byte[] keyPartitionString() {
    return KeyCodec.partition(partition);
  }

  @Benchmark
  public byte[] keySortNumber() {
    return KeyCodec.sort(sort);
  }

  @Benchmark
  public byte[] keySortDecimal() {
    return KeyCodec.sort(decimalSort);
  }

  @Benchmark
  public long keyHash() {
    return KeyCodec.hashOf(partitionBytes);
  }

  @Benchmark
  public AttributeValue keyDecodeSortNumber() {
    return KeyCodec.decodeSort(sortBytes, "N");
  }
}
