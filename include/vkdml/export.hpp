// vkdml/export.hpp — symbol visibility: the library is built with hidden visibility and exports
// only what is marked VKDML_API (so no symbol of its implementation, such as the Vulkan function
// pointers it loads, can clash with an application's own). VKDML_STATIC is defined for users of the
// static library (the CMake target and the pkg-config file define it).
#pragma once

#if defined(VKDML_STATIC)
#define VKDML_API
#elif defined(_WIN32)
#if defined(VKDML_BUILDING)
#define VKDML_API __declspec(dllexport)
#else
#define VKDML_API __declspec(dllimport)
#endif
#else
#define VKDML_API __attribute__((visibility("default")))
#endif
