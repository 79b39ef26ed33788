// json_check.hpp — a small strict JSON parser for the tests that read the tool's JSON output
// (test_cli_bench.cpp): objects keep their keys in document order, numbers are doubles, and any syntax
// error throws std::runtime_error naming the offset.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vkdml_test::json {

/// A JSON value.
struct Value {
    enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Value> items;                           ///< array elements
    std::vector<std::pair<std::string, Value>> fields;  ///< object members, in document order

    /// The member `key` of an object; throws if absent.
    const Value& operator[](std::string_view key) const {
        for (const auto& [name, value] : fields)
            if (name == key) return value;
        throw std::runtime_error("no key '" + std::string(key) + "'");
    }
    bool has(std::string_view key) const {
        for (const auto& field : fields)
            if (field.first == key) return true;
        return false;
    }
    /// The object's keys in document order.
    std::vector<std::string> keys() const {
        std::vector<std::string> names;
        for (const auto& field : fields) names.push_back(field.first);
        return names;
    }
};

namespace detail {

class Parser {
public:
    explicit Parser(std::string_view text) : t_(text) {}

    Value document() {
        Value v = value();
        space();
        if (at_ != t_.size()) error("trailing characters");
        return v;
    }

private:
    [[noreturn]] void error(const std::string& what) const {
        throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(at_));
    }
    void space() {
        while (at_ < t_.size() && (t_[at_] == ' ' || t_[at_] == '\n' || t_[at_] == '\t' || t_[at_] == '\r'))
            ++at_;
    }
    char peek() {
        space();
        if (at_ >= t_.size()) error("unexpected end");
        return t_[at_];
    }
    void expect(char ch) {
        if (peek() != ch) error(std::string("expected '") + ch + "'");
        ++at_;
    }
    bool word(std::string_view w) {
        if (t_.substr(at_, w.size()) != w) return false;
        at_ += w.size();
        return true;
    }

    Value value() {
        Value v;
        const char ch = peek();
        if (ch == '{') {
            v.kind = Value::Kind::object;
            ++at_;
            if (peek() == '}') return ++at_, v;
            for (;;) {
                std::string key = string();
                expect(':');
                v.fields.emplace_back(std::move(key), value());
                if (peek() == '}') return ++at_, v;
                expect(',');
            }
        }
        if (ch == '[') {
            v.kind = Value::Kind::array;
            ++at_;
            if (peek() == ']') return ++at_, v;
            for (;;) {
                v.items.push_back(value());
                if (peek() == ']') return ++at_, v;
                expect(',');
            }
        }
        if (ch == '"') {
            v.kind = Value::Kind::string;
            v.string = string();
            return v;
        }
        if (word("null")) return v;
        if (word("true") || word("false")) {
            v.kind = Value::Kind::boolean;
            v.boolean = t_[at_ - 1] == 'e' && t_.substr(at_ - 4, 4) == "true";
            return v;
        }
        v.kind = Value::Kind::number;
        const std::string rest(t_.substr(at_, 64));
        char* end = nullptr;
        v.number = std::strtod(rest.c_str(), &end);
        if (end == rest.c_str() || !(ch == '-' || (ch >= '0' && ch <= '9'))) error("bad value");
        at_ += static_cast<size_t>(end - rest.c_str());
        return v;
    }

    std::string string() {
        expect('"');
        std::string out;
        while (at_ < t_.size() && t_[at_] != '"') {
            char ch = t_[at_++];
            if (static_cast<unsigned char>(ch) < 0x20) error("control character in a string");
            if (ch == '\\') {
                if (at_ >= t_.size()) error("unexpected end");
                ch = t_[at_++];
                switch (ch) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    const unsigned code =
                        static_cast<unsigned>(std::stoul(std::string(t_.substr(at_, 4)), nullptr, 16));
                    at_ += 4;
                    if (code >= 0x80) error("non-ASCII \\u escape");  // the tool writes none
                    out += static_cast<char>(code);
                    break;
                }
                default: out += ch;  // " \ /
                }
            } else {
                out += ch;
            }
        }
        expect('"');
        return out;
    }

    std::string_view t_;
    size_t at_ = 0;
};

}  // namespace detail

/// Parses a whole JSON document; throws std::runtime_error on a syntax error.
inline Value parse(std::string_view text) {
    return detail::Parser(text).document();
}

}  // namespace vkdml_test::json
