/**
 * Export of tables to files and import of tables from files: ExportTableToPointInTime,
 * DescribeExport, ListExports ({@link Exports}) and ImportTable, DescribeImport, ListImports
 * ({@link Imports}).
 *
 * <p>Where DynamoDB writes to and reads from an S3 bucket, Stator uses a directory: the bucket is
 * a directory under the engine's export directory ({@link ExportDirectory}) and the prefix a path
 * in it, so the files are laid out as DynamoDB lays out its objects ({@code
 * <bucket>/<prefix>/AWSDynamoDB/<ExportId>/manifest-summary.json}, {@code manifest-files.json},
 * {@code data/*.json.gz}, one item a line). An export reads the table as of its time from a
 * point-in-time copy ({@code io.stator.backup}); an import makes its table with the engine's
 * CreateTable and writes each item through the engine's write path, so its indexes are built as
 * any write builds them. Both run on a thread of their own and record their progress in the
 * storage, so DescribeExport and DescribeImport answer from any server on the store and after a
 * restart.
 *
 * <p>Of several servers on one store, each job is held by the server that runs it, through a
 * lease per job ({@link io.stator.lease.JobLeases}) renewed while it runs; a job whose server
 * stopped is recorded FAILED by another server (at its start, or from its housekeeping) once
 * that lease has expired, never while its server still runs it.
 */
package io.stator.export;
