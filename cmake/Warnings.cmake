# Warnings.cmake - warning and sanitizer flags shared by every target of this project.
add_compile_options(-Wall -Wextra -Wshadow -Wvla "$<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>")
if(TENSORMOVE_WERROR)
  add_compile_options(-Werror)
endif()
if(TENSORMOVE_SANITIZE)
  add_compile_options(-fsanitize=${TENSORMOVE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${TENSORMOVE_SANITIZE})
endif()
