def main():
    print("hello from the example workspace")
