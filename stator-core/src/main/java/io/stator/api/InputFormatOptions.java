package io.stator.api;

import java.util.List;

/** How a CSV import's files are read: the delimiter and, when the files have none, the header. */
public record InputFormatOptions(String csvDelimiter, List<String> csvHeaderList) {}
