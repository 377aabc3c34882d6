package io.stator.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyTest {
  @Test
  void aStatementMayBeOneObjectAndActionsAStringOrAList() {
    Policy policy = Policy.parse("""
        {"Version": "2012-10-17", "Statement": {"Effect": "Deny",
         "NotAction": ["dynamodb:GetItem", "dynamodb:Query"], "Resource": "*"}}""");
    assertThat(policy.statements()).containsExactly(new Statement(false,
        List.of("dynamodb:GetItem", "dynamodb:Query"), true, List.of("*"), false));
    Statement s = policy.statements().get(0);
    assertThat(s.appliesTo("dynamodb:PutItem", "arn:t")).isTrue();
    assertThat(s.appliesTo("dynamodb:GetItem", "arn:t")).isFalse();
  }

  @Test
  void whatItDoesNotUnderstandIsRefusedNotIgnored() {
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*",
          "Condition": {"StringEquals": {"dynamodb:LeadingKeys": ["a"]}}}]}"""))
        .hasMessage("Statement 1: dynamodb:LeadingKeys has several values: use"
            + " ForAllValues:StringEquals or ForAnyValue:StringEquals");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*",
          "Condition": {"StringEquals": {"aws:SourceIp": ["10.0.0.1"]}}}]}"""))
        .hasMessageStartingWith("Statement 1: the condition key aws:SourceIp is not supported");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*",
          "Condition": {"NumericLessThan": {"dynamodb:Select": ["1"]}}}]}"""))
        .hasMessageStartingWith(
            "Statement 1: the condition operator NumericLessThan is not supported");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": {"Effect": "Allow", "Action": "*"}}"""))
        .hasMessage("Statement 1 needs one of Resource and NotResource");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": {"Effect": "allow", "Action": "*", "Resource": "*"}}"""))
        .hasMessage("Statement 1: Effect is Allow or Deny, not allow");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": {"Effect": "Allow", "Action": [], "Resource": "*"}}"""))
        .hasMessage("Statement 1: Action is empty");
    assertThatThrownBy(() -> Policy.parse("""
        {"Version": "2020-01-01", "Statement": []}"""))
        .hasMessage("the policy's Version is 2012-10-17, not 2020-01-01");
    assertThatThrownBy(() -> Policy.parse("""
        {"Statement": {"Effect": "Allow", "Principal": "*", "Action": "*", "Resource": "*"}}"""))
        .hasMessageStartingWith("Statement 1: an identity-based policy names no Principal");
  }

  @Test
  void theUsersFileNamesTheUserAtFault() {
    assertThatThrownBy(() -> UsersFile.parse("""
        {"Users": [{"UserName": "a", "AccessKeys": [{"AccessKeyId": "K"}]}]}""", "1"))
        .hasMessage("user a: an access key needs SecretAccessKey");
    assertThatThrownBy(() -> UsersFile.parse("""
        {"Users": [{"UserName": "a", "AccessKeys": [{"AccessKeyId": "K", "SecretAccessKey": "s"}],
          "Policy": {"Statement": {"Effect": "Allow"}}}]}""", "1"))
        .hasMessage("user a: Statement 1 needs one of Action and NotAction");
    List<UsersFile.Key> keys = UsersFile.parse("""
        {"Users": [{"UserName": "a", "AccessKeys": [{"AccessKeyId": "K", "SecretAccessKey": "s",
          "SessionToken": "t"}]}]}""", "123456789012");
    assertThat(keys).hasSize(1);
    assertThat(keys.get(0).principal().arn()).isEqualTo("arn:aws:iam::123456789012:user/a");
    assertThat(keys.get(0).principal().policy().statements()).isEmpty();
    assertThat(keys.get(0).sessionToken()).isEqualTo("t");
  }
}
