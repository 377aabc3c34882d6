/**
 * Read and write capacity: DynamoDB's unit arithmetic ({@link
 * io.stator.capacity.CapacityCalculator}), what ReturnConsumedCapacity reports ({@link
 * io.stator.capacity.Consumption}), and the model of partitions, provisioned and on-demand
 * throughput, burst, adaptive capacity, throttling and hot keys ({@link
 * io.stator.capacity.CapacityModel}) that DynamoDB hides and Stator shows.
 */
package io.stator.capacity;
