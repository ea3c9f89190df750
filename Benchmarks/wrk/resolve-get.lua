-- wrk script for GET /v1/resolve?url=… over Benchmarks/wrk/routes.json (212 routes).
-- Cycles through 40 locations: 24 hits with parameters (some with queries, a catch-all, percent-encoded and
-- Unicode values, nested routes), 6 that redirect (a guard without context, a legacy alias), and 10 misses
-- (404 no_match, counted by wrk as non-2xx). Every connection starts at a different point of the cycle.
local urls = {
  "/repos/apple/swift/issues/42",
  "/repos/apple/swift/issues/42/comments%3Fpage%3D2%26per_page%3D50",
  "/users/octocat",
  "/users/octocat/repos%3Ftype%3Downer",
  "/repos/vapor/routing-kit/pulls/17/files",
  "/repos/vapor/routing-kit/contents/Sources/RoutingKit/TrieRouter.swift",
  "/gists/aa5a315d61ae9438b18d/star",
  "/orgs/swiftlang/members/jdoe",
  "/user/starred/apple/swift-nio",
  "/search/repositories%3Fq%3Dtrie%2Brouter%26sort%3Dstars",
  "/products/B00X4WHP5E",
  "/products/B00X4WHP5E/reviews/981",
  "/products/B00X4WHP5E/gallery/front/large.jpg",
  "/categories/%E5%AE%B6%E5%BA%AD%E7%94%A8%E5%93%81",
  "/orders/2026-000123/tracking",
  "/help/articles/returns-policy",
  "/settings/notifications",
  "/promo/blackfriday2026%3Futm_source%3Dpush%26utm_campaign%3Dbf",
  "/stores/berlin-mitte/hours",
  "/checkout/shipping/address",
  "myapp://products/B00X4WHP5E/questions",
  "https://links.example.com/inbox/t-77%3Fhighlight%3D3",
  "/repos/apple/swift/git/trees/main",
  "/teams/7/repos/apple/swift",
  "/account/settings",
  "/account/orders/991",
  "/u/octocat",
  "/u/1234",
  "/account",
  "/u/%E6%B8%85%E5%8D%8E",
  "/repos/apple",
  "/no/such/route",
  "/products",
  "/products/B00X4WHP5E/reviews/981/extra",
  "/promo/summer2025",
  "/settings",
  "/users/octocat/events/orgs",
  "/gists/1/2/3/4",
  "/v2/users/octocat",
  "/wishlist/a/b",
}

local counter = 0
-- With the argument `new` (`wrk -s resolve-get.lua URL -- new`), every request gets a parameter the endpoint
-- ignores, `&n=<run>-<number>`, so that no two requests of any run are the same and none is answered from the
-- answers the service keeps: the row of resolutions worked out.
local suffix = nil
local sent = 0


init = function(args)
  counter = math.random(#urls)
  if args[1] == "new" then
    -- A run's own prefix, from the kernel's random bytes (two runs may start within the same second).
    local random = io.open("/dev/urandom", "rb")
    local bytes = random:read(8)
    random:close()
    suffix = "&n=" .. bytes:gsub(".", function(byte) return string.format("%02x", byte:byte()) end) .. "-"
  end
end

request = function()
  counter = counter % #urls + 1
  if suffix then
    sent = sent + 1
    return wrk.format("GET", "/v1/resolve?url=" .. urls[counter] .. suffix .. sent)
  end
  return wrk.format("GET", "/v1/resolve?url=" .. urls[counter])
end
