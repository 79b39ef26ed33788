// vkdml/export.hpp — symbol visibility: the library is built with hidden visibility and exports
// only what is marked VKDML_API (so the volk loader compiled into it never clashes with an
// application's own Vulkan symbols).
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
