import VowShell

print("vow")
