/* The volk meta-loader (Debian's libvulkan-volk-dev ships it as source), compiled into vkdml with its
 * globals renamed (volk_private.h) and hidden visibility, so they never clash with an application's
 * own Vulkan symbols, in a shared or a static build. */
#include "volk_names.h"

#include <volk.c>
