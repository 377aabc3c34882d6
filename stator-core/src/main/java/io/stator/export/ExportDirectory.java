package io.stator.export;

import io.stator.api.DynamoDbException;
import java.nio.file.Path;

/**
 * The directory that stands for S3: a bucket is a directory under it, a prefix a path in the
 * bucket. A bucket or prefix that would name a place outside the directory (an absolute path, a
 * {@code ..} or {@code .} segment) is refused as DynamoDB refuses a malformed member, with a
 * ValidationException, so that a request can neither read nor write other files of the machine.
 * Without a directory (the engine's {@code exportDirectory} unset) every export and import is
 * refused with a message that says how to set one.
 */
public final class ExportDirectory {
  private final Path root;

  public ExportDirectory(Path root) {
    this.root = root == null ? null : root.toAbsolutePath().normalize();
  }

  /** The directory for {@code bucket} and {@code prefix} (either may be null or empty). */
  Path resolve(String bucket, String prefix) {
    if (root == null) {
      throw DynamoDbException.validation("This server has no export directory, so S3Bucket"
          + " names nothing: start it with --export-dir DIR (an S3 bucket is then a directory"
          + " in DIR).");
    }
    if (bucket == null || bucket.isEmpty() || bucket.equals(".") || bucket.equals("..")
        || bucket.contains("/") || bucket.contains("\\")) {
      throw DynamoDbException.validation("Invalid S3Bucket '" + bucket + "': a bucket is one"
          + " directory name under the server's export directory.");
    }
    Path at = root.resolve(bucket);
    if (prefix != null && !prefix.isEmpty()) {
      if (prefix.startsWith("/") || prefix.contains("\\")) {
        throw escapes(prefix);
      }
      for (String segment : prefix.split("/")) {
        if (segment.equals("..") || segment.equals(".")) {
          throw escapes(prefix);
        }
        if (!segment.isEmpty()) {
          at = at.resolve(segment);
        }
      }
    }
    if (!at.normalize().startsWith(root)) {
      throw escapes(prefix);
    }
    return at;
  }

  /** The bucket's directory, for an import whose key prefix is matched against its files. */
  Path bucket(String bucket) {
    return resolve(bucket, null);
  }

  private static DynamoDbException escapes(String prefix) {
    return DynamoDbException.validation("Invalid S3Prefix '" + prefix + "': a prefix is a path"
        + " inside its bucket, without '.' or '..' segments, not starting with '/'.");
  }
}
