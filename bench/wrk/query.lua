-- Query of one random partition: its 10 items (~10 KB answer).
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")
DEFAULT_EXPECT = '"Count":10'

function next_request()
  local pk = random_key()
  return "Query", string.format(
    '{"TableName":"%s","KeyConditionExpression":"pk = :p",'
      .. '"ExpressionAttributeValues":{":p":{"S":"%s"}}}', TABLE, pk)
end
