package io.stator.api;

/**
 * The values of DynamoDB's {@code StreamViewType}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum StreamViewType {
  NEW_IMAGE,
  OLD_IMAGE,
  NEW_AND_OLD_IMAGES,
  KEYS_ONLY
}
