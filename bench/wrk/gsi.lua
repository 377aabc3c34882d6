-- Query on the GSI "bygroup": 10 items of one of its 100 partitions.
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")
DEFAULT_EXPECT = '"Count":10'

function next_request()
  return "Query", string.format(
    '{"TableName":"%s","IndexName":"bygroup","KeyConditionExpression":"gpk = :g",'
      .. '"ExpressionAttributeValues":{":g":{"S":"g%03d"}},"Limit":10}',
    TABLE, math.random(0, 99))
end
