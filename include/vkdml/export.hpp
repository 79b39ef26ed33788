// vkdml/export.hpp — symbol visibility: the library is built with hidden visibility and exports
// only what is marked VKDML_API (so no symbol of its implementation, such as the Vulkan function
// pointers it loads, can clash with an application's own). Included by vkdml.hpp; applications need
// not include it themselves.
//
// VKDML_STATIC: defined for users of the static library (the vkdml::vkdml CMake target and the
//   pkg-config file's Cflags define it); define it yourself when compiling against the static library
//   by other means, or Windows builds would look for DLL imports.
// VKDML_BUILDING: defined only while the library itself is compiled (dllexport on Windows).
#pragma once

// Classes export their functions one by one (VKDML_API on each member), never the whole class: an exported
// class's private std::shared_ptr member would draw MSVC's warning C4251 ("needs to have dll-interface")
// in every user's build, and the members are vkdml's own, not part of the ABI.

/// Marks a function as part of vkdml's exported API: nothing for the static library,
/// __declspec(dllexport/dllimport) for a Windows DLL, default ELF visibility otherwise.
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
