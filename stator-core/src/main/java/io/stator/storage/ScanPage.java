package io.stator.storage;

import java.util.List;

/**
 * One page of a {@link Storage#scanPage}: its records, in the storage's order, and whether more
 * follow in the range. A page may be shorter than asked and still not the last (a storage that
 * reads its data in pieces ends a page where a piece ends), so only {@code more} says the end. A
 * page that says more follow holds at least one record: the next page starts after its last.
 */
public record ScanPage(List<StoredRecord> records, boolean more) {}
