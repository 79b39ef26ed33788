// Compiled as C++17 by tests/cxx17/check.cmake: including vkdml.hpp must stop at one #error naming C++20.
#include <vkdml/vkdml.hpp>

int main() {
    return 0;
}
