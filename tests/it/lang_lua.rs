//! Function analysis fixtures for Lua: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const MODULE: &str = r#"local util = require("app.util")

local M = {}

local function helper(x)
  local y = x * 3
  local z = y - 4
  return z + 1
end

function M.total(items)
  local sum = 0
  table.sort(items, function(a, b) return a.price < b.price end)
  for _, item in ipairs(items) do
    sum = sum + item.price
  end
  return sum * 2
end

function M:render(value)
  local format = function(v)
    return tostring(v)
  end
  local function inner()
    return 1
  end
  return format(value) .. inner()
end

M.build = function(data)
  return util.parse(data)
end

local Order = {}

function Order.total()
  return 0
end

return M
"#;

#[test]
fn lua_situations() {
    let env = TestEnv::new();
    let repo = env.repo("lua");
    let file = "src/app/cart.lua";
    repo.write(file, MODULE).commit("base");
    let mut src = Source(MODULE.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "M.build = function",
        "function M.added()\n  return 7\nend\n\nM.build = function",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua added M.added"]
    );
    let s = edit("function M.added()\n  return 7\nend\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua deleted M.added"]
    );
    let s = edit("  return sum * 2", "  return sum * 3");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua modified M.total"]
    );
    let s = edit(
        "M.build = function(data)",
        "M.build = function(data, strict)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua signature_changed M.build"]
    );
    let s = edit("local function helper(x)", "local function assist(x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua renamed assist (was helper)"]
    );
    let s = edit(
        "local function assist(x)\n  local y = x * 3",
        "local function assist2(x)\n  local y = x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua renamed assist2 (was assist) +edited"]
    );
    // Move `Order` to a file of its own.
    let order = "local Order = {}\n\nfunction Order.total()\n  return 0\nend\n";
    let s = edit(&format!("{order}\n"), "");
    let order_file = format!("{order}\nreturn Order\n");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/app/order.lua", Some(&order_file))]
        ),
        ["src/app/order.lua moved Order.total from src/app/cart.lua"]
    );
    // Reordering functions is not a change.
    let build = "M.build = function(data, strict)\n  return util.parse(data)\nend\n\n";
    edit(build, "");
    let s = edit("function M.total", &format!("{build}function M.total"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // What StyLua may write either way, and comments, are formatting only.
    let s = edit("  return util.parse(data)", "  return util.parse (data) ;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua formatting_only M.build"]
    );
    let s = edit(
        "function M.total(items)",
        "--- The total, doubled.\nfunction M.total(items) -- in cents",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua formatting_only M.total"]
    );
    // The same name in two tables: only the one that changed.
    let s = Source(order_file.clone()).edit("return 0", "return 1");
    assert_eq!(
        step(&env, &repo, &[("src/app/order.lua", Some(&s))]),
        ["src/app/order.lua modified Order.total"]
    );
    // A function bound to a name is its own function, even inside another; a function value
    // passed as an argument is part of the function around it.
    let s = edit("    return 1\n", "    return 2\n");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua modified M:render.inner"]
    );
    let s = edit("    return tostring(v)", "    return tostring(v) .. '!'");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua modified M:render.format"]
    );
    let s = edit("a.price < b.price", "a.price > b.price");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua modified M.total"]
    );
    // Imports.
    let s = edit("require(\"app.util\")", "require(\"app.helpers\")");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/cart.lua imports +app.helpers -app.util"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("return M\n", "function broken(\nreturn M\n");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"src/app/cart.lua parse_errors".to_owned()),
        "{got:?}"
    );
}

/// Lua's tricky forms and the names they get.
#[test]
fn lua_forms_are_named_as_lua_writes_them() {
    let env = TestEnv::new();
    let repo = env.repo("lua-forms");
    repo.write("README", "x\n").commit("base");
    let forms = r#"local Vector = {}
Vector.__index = Vector
function Vector.new(x, y) return setmetatable({ x = x, y = y }, Vector) end
function Vector.__add(a, b) return Vector.new(a.x + b.x, a.y + b.y) end
function Vector:length() return math.sqrt(self.x ^ 2 + self.y ^ 2) end
function a.b.c:d() end
Vector.scale = function(v, k) return Vector.new(v.x * k, v.y * k) end
local square = function(n) return n * n end
local first, second = function() end, function() end
describe("vector", function()
  it("adds", function() assert(true) end)
end)
return Vector
"#;
    let got = step(&env, &repo, &[("vector.lua", Some(forms))]);
    assert_eq!(
        got,
        [
            "vector.lua added Vector.__add",
            "vector.lua added Vector.new",
            "vector.lua added Vector.scale",
            "vector.lua added Vector:length",
            "vector.lua added a.b.c:d",
            "vector.lua added square",
        ]
    );
}
