/* volk for vkdml's own sources: every global volk defines (its entry points and one function pointer
 * per Vulkan command) renamed vkdml_volk_<name> by the generated volk_names.h, so a static libvkdml.a
 * never offers a `vkCreateBuffer` or `volkInitialize` to the application's link. Every vkdml source that
 * uses volk includes this header, never <volk.h> directly. */
#ifndef VKDML_VOLK_PRIVATE_H
#define VKDML_VOLK_PRIVATE_H

#include "volk_names.h"

#include <volk.h>

#endif
