-- wrk script for POST /v1/resolve with a JSON body over Benchmarks/wrk/routes.json: by URL with and without a
-- context (so guards pass or redirect), by name with parameters and a query, with `current` (sameRoute), and a
-- few misses.
local bodies = {
  '{"url": "/repos/apple/swift/issues/42?tab=comments", "context": {"loggedIn": true}}',
  '{"url": "/account/settings", "context": {"loggedIn": true, "userId": "u-1"}}',
  '{"url": "/account/settings", "context": {"loggedIn": false}}',
  '{"name": "accountOrder", "params": {"orderId": "991"}, "context": {"loggedIn": true}}',
  '{"name": "product", "params": {"productId": "B00X4WHP5E"}, "query": {"ref": "push"}}',
  '{"url": "/products/B00X4WHP5E", "current": "/products/B00X4WHP5E/reviews"}',
  '{"url": "myapp://orders/2026-000123/tracking", "context": {"loggedIn": true, "locale": "de-DE"}}',
  '{"url": "/u/octocat"}',
  '{"url": "/users/octocat/repos?type=owner&sort=updated", "redirectLimit": 2}',
  '{"url": "/no/such/route", "context": {"loggedIn": true}}',
}
local headers = {["Content-Type"] = "application/json"}
local counter = 0

init = function(args)
  counter = math.random(#bodies)
end

request = function()
  counter = counter % #bodies + 1
  return wrk.format("POST", "/v1/resolve", headers, bodies[counter])
end
