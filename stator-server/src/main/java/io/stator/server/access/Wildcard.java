package io.stator.server.access;

/**
 * IAM's wildcards in an action or resource of a policy: {@code *} stands for any run of
 * characters (none included), {@code ?} for any one character; everything else is itself.
 */
final class Wildcard {
  private Wildcard() {}

  /** Whether {@code text} matches {@code pattern}; actions compare ignoring case, ARNs do not. */
  static boolean matches(String pattern, String text, boolean ignoreCase) {
    // Greedy match with one backtrack point: the last '*' seen and where its run now ends.
    int p = 0;
    int t = 0;
    int star = -1;
    int afterStar = 0;
    while (t < text.length()) {
      if (p < pattern.length()
          && (pattern.charAt(p) == '?' || same(pattern.charAt(p), text.charAt(t), ignoreCase))) {
        p++;
        t++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        afterStar = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++afterStar;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  private static boolean same(char a, char b, boolean ignoreCase) {
    return a == b || (ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b));
  }
}
