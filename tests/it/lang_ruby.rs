//! Function analysis fixtures for Ruby: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const APP: &str = r#"require "json"
require_relative "helpers"

module Shop
  class Cart
    attr_reader :items

    def initialize(items)
      @items = items
    end

    def total
      sum = items.sum { |i| i.price }
      sum * 2
    end

    def self.build(data)
      new(JSON.parse(data))
    end

    def helper(x)
      y = x * 3
      z = y - 4
      z + 1
    end

    def render
      format = lambda do |value|
        value.to_s
      end
      def inner
        1
      end
      format.call(total)
    end
  end

  class Order
    def total
      0
    end
  end
end
"#;

#[test]
fn ruby_situations() {
    let env = TestEnv::new();
    let repo = env.repo("ruby");
    let file = "lib/shop.rb";
    repo.write(file, APP).commit("base");
    let mut src = Source(APP.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "    def self.build",
        "    def added\n      7\n    end\n\n    def self.build",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb added Shop::Cart#added"]
    );
    let s = edit("    def added\n      7\n    end\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb deleted Shop::Cart#added"]
    );
    let s = edit("      sum * 2", "      sum * 3");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb modified Shop::Cart#total"]
    );
    let s = edit(
        "def self.build(data)",
        "def self.build(data, strict: false)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb signature_changed Shop::Cart.build"]
    );
    let s = edit("def helper(x)", "def assist(x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb renamed Shop::Cart#assist (was Shop::Cart#helper)"]
    );
    let s = edit(
        "def assist(x)\n      y = x * 3",
        "def assist2(x)\n      y = x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb renamed Shop::Cart#assist2 (was Shop::Cart#assist) +edited"]
    );
    // Move `Order` to a file of its own.
    let order = "  class Order\n    def total\n      0\n    end\n  end\n";
    let s = edit(&format!("\n{order}"), "");
    let order_file = format!("module Shop\n{order}end\n");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("lib/order.rb", Some(&order_file))]
        ),
        ["lib/order.rb moved Shop::Order#total from lib/shop.rb"]
    );
    // Reordering methods is not a change.
    let init = "    def initialize(items)\n      @items = items\n    end\n\n";
    edit(init, "");
    let s = edit("    def render", &format!("{init}    def render"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // What RuboCop may write either way, and comments, are formatting only.
    let s = edit(
        "      new(JSON.parse(data))",
        "      new(JSON.parse(data,))  ;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb formatting_only Shop::Cart.build"]
    );
    let s = edit(
        "    def total\n      sum",
        "    # The total, doubled.\n    def total # (in cents)\n      sum",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb formatting_only Shop::Cart#total"]
    );
    // The same method name in two classes: only the one that changed.
    let s = Source(order_file.clone()).edit("      0", "      1");
    assert_eq!(
        step(&env, &repo, &[("lib/order.rb", Some(&s))]),
        ["lib/order.rb modified Shop::Order#total"]
    );
    // A nested `def` is its own function; a lambda is part of the method around it.
    let s = edit("        1\n", "        2\n");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb modified Shop::Cart#render#inner"]
    );
    let s = edit("        value.to_s", "        value.to_s.strip");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb modified Shop::Cart#render"]
    );
    // A visibility wrapper is part of the signature.
    let s = edit("    def render", "    private def render");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb signature_changed Shop::Cart#render"]
    );
    // Imports.
    let s = edit("require \"json\"\n", "require \"oj\"\n");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["lib/shop.rb imports +oj -json"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "    private def render",
        "    def broken(\n\n    private def render",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"lib/shop.rb parse_errors".to_owned()),
        "{got:?}"
    );
}

/// Ruby's tricky forms and the names they get.
#[test]
fn ruby_forms_are_named_as_ruby_writes_them() {
    let env = TestEnv::new();
    let repo = env.repo("ruby-forms");
    repo.write("README", "x\n").commit("base");
    let forms = r#"module Outer
  class Point < Struct.new(:x, :y)
    attr_accessor :label
    def +(other) = Point.new(x + other.x, y + other.y)
    def [](i) i.zero? ? x : y end
    def <=>(other) x <=> other.x end
    def label=(value) @label = value end
    def empty? = x.zero?
    def self.origin = new(0, 0)
    class << self
      def parse(text) new(*text.split(",").map(&:to_i)) end
    end
    protected def scale(k) Point.new(x * k, y * k) end
    handler = proc { |p| p.x }
    square = ->(v) { v * v }
  end
end
def top_level(*args, **opts, &block) = block&.call(*args, **opts)
"#;
    let got = step(&env, &repo, &[("lib/forms.rb", Some(forms))]);
    assert_eq!(
        got,
        [
            "lib/forms.rb added Outer::Point#+",
            "lib/forms.rb added Outer::Point#<=>",
            "lib/forms.rb added Outer::Point#[]",
            "lib/forms.rb added Outer::Point#empty?",
            "lib/forms.rb added Outer::Point#label=",
            "lib/forms.rb added Outer::Point#scale",
            "lib/forms.rb added Outer::Point.origin",
            "lib/forms.rb added Outer::Point.parse",
            "lib/forms.rb added top_level",
        ]
    );
}
