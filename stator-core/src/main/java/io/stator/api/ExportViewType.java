package io.stator.api;

/**
 * The values of DynamoDB's {@code ExportViewType}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum ExportViewType {
  NEW_IMAGE,
  NEW_AND_OLD_IMAGES
}
